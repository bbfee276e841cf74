// The page's words in English, Arabic (right to left), Thai, Russian and Romanian. The rules'
// own messages (an illegal move's reason) come from the server in English.
const en = {
  clock: 'Clock', no_clock: 'No clock', flagged: '{side} ran out of time.', time: 'time ran out',
  title: 'Tafl against the engine', language: 'Language', new_game: 'New game', game: 'Game',
  custom_rules: 'Other rules (OpenTafl string)…', rules_string: 'OpenTafl rules string (5x5 to 19x19)',
  mode: 'Mode', mode_play: 'Play the engine', mode_analysis: 'Analysis board', your_side: 'Your side',
  attackers: 'Attackers', defenders: 'Defenders', the_attackers: 'the attackers', the_defenders: 'the defenders',
  strength: 'Engine strength', set_up: 'Start from a position or a record',
  position_or_record: 'Position string or .otg record', start: 'Start',
  level_instant: 'Instant (0.1 s a move)', level_quick: 'Quick (0.5 s)', level_casual: 'Casual (1 s)',
  level_club: 'Club (3 s)', level_strong: 'Strong (8 s)', level_master: 'Master (20 s)',
  first: '{side} move first.', board_size: '{n}x{n} board.',
  win_chance: 'Your win chance', side_win_chance: 'Win chance of the side to move',
  move_now: 'Move now', hint: 'Hint', best_lines: 'Three best lines', takeback: 'Take back', flip: 'Flip board',
  resign: 'Resign', download: 'Download .otg', type_move: 'Type a move', play: 'Play', moves: 'Moves',
  viewing: 'Viewing an earlier position.', back_to_game: 'Back to the game',
  your_turn: 'Your move ({side}).', engine_thinking: 'The engine is thinking…', to_move: '{side} to move.',
  queue: 'Waiting for the engine: place {n} in the queue.', depth: 'Depth {n}', started: 'Thinking',
  you_win: 'You win!', you_lose: 'The engine wins.', win: '{side} win: {reason}.', draw: 'Draw: {reason}.',
  resigned: '{side} resigned.', king_captured: 'the king was captured', king_escaped: 'the king escaped',
  all_captured: 'the other side has no piece left', defenders_immobile: 'no defender can move',
  edge_fort: 'the king built an unbreakable fort on the edge', encircled: 'the attackers encircled every defender',
  no_move: 'the side to move had no legal move', repetition: 'the same position occurred a third time',
  cannot_escape: 'the king can no longer escape', draw_repetition: 'the same position came back',
  draw_no_move: 'the side to move has no legal move', draw_agreement: 'agreed', move_limit: 'the move limit was reached',
  other: 'the rules ended the game', illegal: 'Not allowed', confirm_resign: 'Resign this game?',
  hint_is: 'Hint: {move}', cannot_move: 'That piece cannot move now.', engine_failed: 'The engine stopped: ',
  mate_in: '{side} can force a win within {n} moves',
};

const ar = {
  clock: 'الساعة', no_clock: 'بلا ساعة', flagged: 'نفد وقت {side}.', time: 'نفد الوقت',
  title: 'التافل ضد المحرك', language: 'اللغة', new_game: 'لعبة جديدة', game: 'اللعبة',
  custom_rules: 'قواعد أخرى (نص OpenTafl)…', rules_string: 'نص قواعد OpenTafl (من 5x5 إلى 19x19)',
  mode: 'الوضع', mode_play: 'العب ضد المحرك', mode_analysis: 'لوحة التحليل', your_side: 'جانبك',
  attackers: 'المهاجمون', defenders: 'المدافعون', the_attackers: 'المهاجمون', the_defenders: 'المدافعون',
  strength: 'قوة المحرك', set_up: 'ابدأ من وضعية أو من سجل',
  position_or_record: 'نص الوضعية أو سجل OTG', start: 'ابدأ',
  level_instant: 'فوري (0.1 ث للنقلة)', level_quick: 'سريع (0.5 ث)', level_casual: 'هاوٍ (1 ث)',
  level_club: 'نادٍ (3 ث)', level_strong: 'قوي (8 ث)', level_master: 'أستاذ (20 ث)',
  first: 'يبدأ {side}.', board_size: 'لوحة {n}x{n}.',
  win_chance: 'فرصة فوزك', side_win_chance: 'فرصة فوز الجانب الذي عليه الدور',
  move_now: 'العب الآن', hint: 'تلميح', best_lines: 'أفضل ثلاثة خطوط', takeback: 'تراجع', flip: 'اقلب اللوحة',
  resign: 'استسلم', download: 'نزّل ملف OTG', type_move: 'اكتب نقلة', play: 'العب', moves: 'النقلات',
  viewing: 'تعرض وضعية سابقة.', back_to_game: 'عد إلى اللعبة',
  your_turn: 'دورك ({side}).', engine_thinking: 'المحرك يفكر…', to_move: 'الدور على {side}.',
  queue: 'بانتظار المحرك: المركز {n} في الطابور.', depth: 'العمق {n}', started: 'يفكر',
  you_win: 'لقد فزت!', you_lose: 'فاز المحرك.', win: 'فاز {side}: {reason}.', draw: 'تعادل: {reason}.',
  resigned: 'استسلم {side}.', king_captured: 'أُسر الملك', king_escaped: 'هرب الملك',
  all_captured: 'لم يبق للجانب الآخر أي قطعة', defenders_immobile: 'لا يستطيع أي مدافع أن يتحرك',
  edge_fort: 'بنى الملك حصنًا منيعًا على الحافة', encircled: 'طوّق المهاجمون كل المدافعين',
  no_move: 'لم تكن للجانب الذي عليه الدور نقلة قانونية', repetition: 'تكررت الوضعية نفسها للمرة الثالثة',
  cannot_escape: 'لم يعد الملك قادرًا على الهرب', draw_repetition: 'عادت الوضعية نفسها',
  draw_no_move: 'ليست للجانب الذي عليه الدور نقلة قانونية', draw_agreement: 'بالاتفاق', move_limit: 'بلغت اللعبة حد النقلات',
  other: 'أنهت القواعد اللعبة', illegal: 'غير مسموح', confirm_resign: 'أتستسلم في هذه اللعبة؟',
  hint_is: 'تلميح: {move}', cannot_move: 'لا تستطيع هذه القطعة أن تتحرك الآن.', engine_failed: 'توقف المحرك: ',
  mate_in: '{side} يفرضون الفوز في {n}',
};

const th = {
  clock: 'นาฬิกา', no_clock: 'ไม่จับเวลา', flagged: '{side}หมดเวลา', time: 'หมดเวลา',
  title: 'ตาฟล์ เล่นกับเอนจิน', language: 'ภาษา', new_game: 'เกมใหม่', game: 'เกม',
  custom_rules: 'กติกาอื่น (สตริง OpenTafl)…', rules_string: 'สตริงกติกา OpenTafl (5x5 ถึง 19x19)',
  mode: 'โหมด', mode_play: 'เล่นกับเอนจิน', mode_analysis: 'กระดานวิเคราะห์', your_side: 'ฝ่ายของคุณ',
  attackers: 'ฝ่ายบุก', defenders: 'ฝ่ายป้องกัน', the_attackers: 'ฝ่ายบุก', the_defenders: 'ฝ่ายป้องกัน',
  strength: 'ความแข็งของเอนจิน', set_up: 'เริ่มจากตำแหน่งหรือบันทึกเกม',
  position_or_record: 'สตริงตำแหน่งหรือบันทึก .otg', start: 'เริ่ม',
  level_instant: 'ทันที (0.1 วินาทีต่อตา)', level_quick: 'เร็ว (0.5 วินาที)', level_casual: 'สบาย ๆ (1 วินาที)',
  level_club: 'ระดับชมรม (3 วินาที)', level_strong: 'แข็ง (8 วินาที)', level_master: 'ปรมาจารย์ (20 วินาที)',
  first: '{side}เดินก่อน', board_size: 'กระดาน {n}x{n}',
  win_chance: 'โอกาสชนะของคุณ', side_win_chance: 'โอกาสชนะของฝ่ายที่ถึงตาเดิน',
  move_now: 'เดินเดี๋ยวนี้', hint: 'คำใบ้', best_lines: 'สามแนวที่ดีที่สุด', takeback: 'ถอนตาเดิน', flip: 'กลับกระดาน',
  resign: 'ยอมแพ้', download: 'ดาวน์โหลด .otg', type_move: 'พิมพ์ตาเดิน', play: 'เดิน', moves: 'ตาเดิน',
  viewing: 'กำลังดูตำแหน่งก่อนหน้า', back_to_game: 'กลับไปที่เกม',
  your_turn: 'ตาของคุณ ({side})', engine_thinking: 'เอนจินกำลังคิด…', to_move: 'ตาของ{side}',
  queue: 'รอเอนจิน: ลำดับที่ {n} ในคิว', depth: 'ความลึก {n}', started: 'กำลังคิด',
  you_win: 'คุณชนะ!', you_lose: 'เอนจินชนะ', win: '{side}ชนะ: {reason}', draw: 'เสมอ: {reason}',
  resigned: '{side}ยอมแพ้', king_captured: 'ราชาถูกจับ', king_escaped: 'ราชาหนีออกไปได้',
  all_captured: 'อีกฝ่ายไม่เหลือหมากเลย', defenders_immobile: 'ฝ่ายป้องกันเดินไม่ได้เลย',
  edge_fort: 'ราชาสร้างป้อมที่ขอบกระดานซึ่งทำลายไม่ได้', encircled: 'ฝ่ายบุกล้อมฝ่ายป้องกันไว้ทั้งหมด',
  no_move: 'ฝ่ายที่ถึงตาเดินไม่มีตาเดินที่ถูกกติกา', repetition: 'ตำแหน่งเดิมเกิดขึ้นเป็นครั้งที่สาม',
  cannot_escape: 'ราชาหนีไม่ได้อีกแล้ว', draw_repetition: 'ตำแหน่งเดิมกลับมาอีก',
  draw_no_move: 'ฝ่ายที่ถึงตาเดินไม่มีตาเดินที่ถูกกติกา', draw_agreement: 'ตกลงกัน', move_limit: 'ครบจำนวนตาเดินที่กำหนด',
  other: 'กติกาทำให้เกมจบ', illegal: 'เดินไม่ได้', confirm_resign: 'ยอมแพ้เกมนี้หรือไม่?',
  hint_is: 'คำใบ้: {move}', cannot_move: 'หมากตัวนี้เดินไม่ได้ตอนนี้', engine_failed: 'เอนจินหยุด: ',
  mate_in: '{side}บังคับชนะได้ใน {n}',
};

const ru = {
  clock: 'Часы', no_clock: 'Без часов', flagged: '{side}: время вышло.', time: 'время истекло',
  title: 'Тафл против движка', language: 'Язык', new_game: 'Новая игра', game: 'Игра',
  custom_rules: 'Другие правила (строка OpenTafl)…', rules_string: 'Строка правил OpenTafl (от 5x5 до 19x19)',
  mode: 'Режим', mode_play: 'Игра с движком', mode_analysis: 'Доска анализа', your_side: 'Ваша сторона',
  attackers: 'Нападающие', defenders: 'Защитники', the_attackers: 'нападающие', the_defenders: 'защитники',
  strength: 'Сила движка', set_up: 'Начать с позиции или записи партии',
  position_or_record: 'Строка позиции или запись .otg', start: 'Начать',
  level_instant: 'Мгновенно (0,1 с на ход)', level_quick: 'Быстро (0,5 с)', level_casual: 'Любитель (1 с)',
  level_club: 'Клуб (3 с)', level_strong: 'Сильно (8 с)', level_master: 'Мастер (20 с)',
  first: 'Первыми ходят {side}.', board_size: 'Доска {n}x{n}.',
  win_chance: 'Ваши шансы на победу', side_win_chance: 'Шансы стороны, которая ходит',
  move_now: 'Ходи сейчас', hint: 'Подсказка', best_lines: 'Три лучших варианта', takeback: 'Вернуть ход', flip: 'Перевернуть доску',
  resign: 'Сдаться', download: 'Скачать .otg', type_move: 'Введите ход', play: 'Ход', moves: 'Ходы',
  viewing: 'Показана прежняя позиция.', back_to_game: 'Вернуться к игре',
  your_turn: 'Ваш ход ({side}).', engine_thinking: 'Движок думает…', to_move: 'Ходят {side}.',
  queue: 'Ожидание движка: место {n} в очереди.', depth: 'Глубина {n}', started: 'Думает',
  you_win: 'Вы победили!', you_lose: 'Победил движок.', win: 'Победили {side}: {reason}.', draw: 'Ничья: {reason}.',
  resigned: '{side} сдались.', king_captured: 'король взят', king_escaped: 'король ушёл',
  all_captured: 'у другой стороны не осталось фигур', defenders_immobile: 'ни один защитник не может ходить',
  edge_fort: 'король построил неприступную крепость у края', encircled: 'нападающие окружили всех защитников',
  no_move: 'у стороны, которая ходит, не было хода', repetition: 'та же позиция возникла в третий раз',
  cannot_escape: 'король больше не может уйти', draw_repetition: 'позиция повторилась',
  draw_no_move: 'у стороны, которая ходит, нет хода', draw_agreement: 'по соглашению', move_limit: 'достигнут предел ходов',
  other: 'игра окончена по правилам', illegal: 'Так нельзя', confirm_resign: 'Сдать эту партию?',
  hint_is: 'Подсказка: {move}', cannot_move: 'Эта фигура сейчас не может ходить.', engine_failed: 'Движок остановился: ',
  mate_in: '{side} выигрывают за {n}',
};

const ro = {
  clock: 'Ceas', no_clock: 'Fără ceas', flagged: '{side} au rămas fără timp.', time: 'timpul s-a scurs',
  title: 'Tafl contra motorului', language: 'Limba', new_game: 'Joc nou', game: 'Jocul',
  custom_rules: 'Alte reguli (șir OpenTafl)…', rules_string: 'Șir de reguli OpenTafl (5x5 până la 19x19)',
  mode: 'Mod', mode_play: 'Joacă contra motorului', mode_analysis: 'Tablă de analiză', your_side: 'Partea ta',
  attackers: 'Atacatorii', defenders: 'Apărătorii', the_attackers: 'atacatorii', the_defenders: 'apărătorii',
  strength: 'Puterea motorului', set_up: 'Începe dintr-o poziție sau dintr-o partidă',
  position_or_record: 'Șir de poziție sau partidă .otg', start: 'Începe',
  level_instant: 'Instant (0,1 s pe mutare)', level_quick: 'Rapid (0,5 s)', level_casual: 'Amator (1 s)',
  level_club: 'Club (3 s)', level_strong: 'Puternic (8 s)', level_master: 'Maestru (20 s)',
  first: 'Încep {side}.', board_size: 'Tablă de {n}x{n}.',
  win_chance: 'Șansa ta de câștig', side_win_chance: 'Șansa părții care mută',
  move_now: 'Mută acum', hint: 'Indiciu', best_lines: 'Cele mai bune trei variante', takeback: 'Ia mutarea înapoi', flip: 'Întoarce tabla',
  resign: 'Abandonează', download: 'Descarcă .otg', type_move: 'Scrie o mutare', play: 'Mută', moves: 'Mutări',
  viewing: 'Vezi o poziție anterioară.', back_to_game: 'Înapoi la joc',
  your_turn: 'Muți tu ({side}).', engine_thinking: 'Motorul se gândește…', to_move: 'Mută {side}.',
  queue: 'Se așteaptă motorul: locul {n} la coadă.', depth: 'Adâncime {n}', started: 'Se gândește',
  you_win: 'Ai câștigat!', you_lose: 'Motorul a câștigat.', win: 'Câștigă {side}: {reason}.', draw: 'Remiză: {reason}.',
  resigned: 'Au abandonat {side}.', king_captured: 'regele a fost capturat', king_escaped: 'regele a scăpat',
  all_captured: 'cealaltă parte nu mai are piese', defenders_immobile: 'niciun apărător nu poate muta',
  edge_fort: 'regele și-a făcut o fortăreață de neînvins pe margine', encircled: 'atacatorii au încercuit toți apărătorii',
  no_move: 'partea la mutare nu avea nicio mutare legală', repetition: 'aceeași poziție a apărut a treia oară',
  cannot_escape: 'regele nu mai poate scăpa', draw_repetition: 'poziția s-a repetat',
  draw_no_move: 'partea la mutare nu are nicio mutare legală', draw_agreement: 'prin acord', move_limit: 's-a atins limita de mutări',
  other: 'regulile au încheiat jocul', illegal: 'Nu se poate', confirm_resign: 'Abandonezi acest joc?',
  hint_is: 'Indiciu: {move}', cannot_move: 'Piesa aceasta nu poate muta acum.', engine_failed: 'Motorul s-a oprit: ',
  mate_in: '{side} forțează câștigul în {n}',
};

export const LANGUAGES = { en, ar, th, ru, ro };
let current = 'en';

export function chooseLanguage(lang) {
  current = LANGUAGES[lang] ? lang : 'en';
  try { localStorage.setItem('tafl-lang', current); } catch { /* private mode: not remembered */ }
  document.documentElement.lang = current;
  document.documentElement.dir = current === 'ar' ? 'rtl' : 'ltr';
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  return current;
}

export function rememberedLanguage() {
  let saved = null;
  try { saved = localStorage.getItem('tafl-lang'); } catch { saved = null; }
  if (saved && LANGUAGES[saved]) return saved;
  const browser = (navigator.language || 'en').slice(0, 2);
  return LANGUAGES[browser] ? browser : 'en';
}

export function t(key, values = {}) {
  let text = LANGUAGES[current][key] ?? en[key] ?? key;
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`{${name}}`, value);
  return text;
}
