// The learn pages (/learn/KEY): each rule of a game in the page's language, in the order a
// person learns, with a small board the server set up in the library and, where it helps, a
// one-move exercise whose move the server checks with the library. The page knows no rule.
import { Board } from './board.js';
import { ltr, t } from './i18n.js';

const $ = (id) => document.getElementById(id);

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['content-type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => null);
  if (!response.ok) throw Object.assign(new Error(data && data.message), { code: data && data.error, reason: data && data.reason });
  return data;
}

// The course being shown, and what the page needs from app.js (names, sides, reasons).
const learn = { course: null, helpers: null };

function goalText(goal) {
  if (!goal) return '';
  const values = {};
  if (goal.square) values.square = ltr(goal.square);
  if (goal.from) values.from = ltr(goal.from);
  return t(`learn_goal_${goal.code}`, values);
}

function lessonSection(course, lesson, index) {
  const section = document.createElement('section');
  section.className = 'lesson';
  section.dataset.lesson = lesson.id;
  const title = document.createElement('h2');
  title.textContent = `${index + 1}. ${t(`learn_${course.words}_${lesson.id}_title`)}`;
  const text = document.createElement('p');
  text.className = 'lesson-text';
  text.textContent = t(`learn_${course.words}_${lesson.id}_text`, {
    size: ltr(String(lesson.size)), castle: ltr(course.castle || ''),
  });
  const clauses = document.createElement('p');
  clauses.className = 'clauses';
  clauses.textContent = t('learn_clauses', { list: ltr(lesson.clauses.join(', ')) });
  const figure = document.createElement('div');
  figure.className = 'lesson-board';
  figure.dir = 'ltr';
  const goal = document.createElement('p');
  goal.className = 'goal';
  goal.textContent = goalText(lesson.goal);
  const feedback = document.createElement('p');
  feedback.className = 'feedback';
  feedback.setAttribute('role', 'status');
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  section.append(title, text, figure, goal, feedback, buttons, clauses);
  const board = new Board(figure, {
    onMove: (from, to) => attempt(course, lesson, section, board, `${from}-${to}`),
    onAttempt: (from, to) => {
      if (to === null) return;
      attempt(course, lesson, section, board, `${from}-${to}`);
    },
  });
  const draw = (extra = {}) => board.render({
    size: lesson.size, cells: lesson.cells, throne: lesson.throne, corners: lesson.corners,
    camps: lesson.camps, legal: lesson.goal ? lesson.legal : {}, frozen: !lesson.goal,
    last: null, arrow: null, label: t(`learn_${course.words}_${lesson.id}_title`), ...extra,
  });
  section.reset = () => { feedback.textContent = ''; feedback.className = 'feedback'; draw(); };
  section.draw = draw;
  if (lesson.goal) {
    const show = document.createElement('button');
    show.textContent = t('learn_show');
    show.className = 'show-answer';
    show.addEventListener('click', () => {
      const [from, to] = lesson.answer.split('-');
      draw({ arrow: { from, to } });
      feedback.className = 'feedback';
      feedback.textContent = t('learn_answer', { move: ltr(lesson.answer) });
    });
    const again = document.createElement('button');
    again.textContent = t('learn_again');
    again.className = 'again';
    again.addEventListener('click', () => section.reset());
    buttons.append(show, again);
  }
  draw();
  return section;
}

async function attempt(course, lesson, section, board, move) {
  const feedback = section.querySelector('.feedback');
  try {
    const answer = await call('POST', `/api/learn/${course.key}/${lesson.id}`, { move });
    if (answer.reason) {
      feedback.className = 'feedback error';
      feedback.textContent = `${t('illegal')}: ${learn.helpers.refusal(answer)}`;
      section.draw();
      return;
    }
    const [from, to] = answer.move.split('-');
    section.draw({ cells: answer.cells, legal: {}, frozen: true, last: { from, to, captures: answer.captures } });
    feedback.className = answer.done ? 'feedback right' : 'feedback error';
    feedback.textContent = answer.done ? t('learn_right') : t('learn_wrong');
    section.dataset.done = answer.done ? '1' : '0';
  } catch (e) {
    feedback.className = 'feedback error';
    feedback.textContent = learn.helpers.refusal(e);
    section.draw();
  }
}

/** Draws the course again, in the language now chosen. */
export function renderLearn() {
  const course = learn.course;
  if (!course) return;
  const { gameName, variants } = learn.helpers;
  const variant = variants().find((v) => v.key === course.key);
  $('learn-title').textContent = `${t('learn')}: ${variant ? gameName(variant) : course.key}`;
  $('learn-play').textContent = t('learn_play');
  const others = $('learn-others');
  others.replaceChildren();
  const label = document.createElement('span');
  label.textContent = t('learn_other');
  others.append(label);
  for (const v of variants().filter((x) => x.learn && x.key !== course.key)) {
    const link = document.createElement('a');
    link.href = `/learn/${v.key}`;
    link.textContent = gameName(v);
    others.append(' ', link);
  }
  const list = $('lessons');
  list.replaceChildren(...course.lessons.map((lesson, i) => lessonSection(course, lesson, i)));
}

/** Shows the learn page of the game `key`. */
export async function showLearn(key, helpers) {
  learn.helpers = helpers;
  $('learn').hidden = false;
  $('learn-play').addEventListener('click', () => {
    localStorage.setItem('tafl-variant', key);
    window.location.href = '/';
  });
  try {
    learn.course = await call('GET', `/api/learn/${key}`);
  } catch (e) {
    $('learn-title').textContent = helpers.refusal(e);
    return;
  }
  renderLearn();
}
