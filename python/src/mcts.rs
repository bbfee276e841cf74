//! A batched Monte Carlo tree search (PUCT, as AlphaZero's) whose leaves a Python callback
//! evaluates in batches: `Mcts(c_puct, simulations, batch_size).search(games, evaluate)`.
//!
//! The trees live in Rust, one per game. Each simulation walks down from the root by the PUCT
//! rule to a leaf; a leaf where the game is over is valued by the rules at once (+1 for the side
//! to move winning, -1 losing, 0 a draw), the others are put in a batch, and a pending visit
//! (a virtual loss) on their path steers the next walks elsewhere, so that one batch holds
//! different leaves. A full batch goes to `evaluate(planes, masks)`, which returns a prior for
//! every action and a value per leaf; the leaves are expanded with the priors of their legal
//! moves (renormalised: illegal actions' priors are ignored) and the values are backed up.
//! Only moves of `Game::legal_moves` ever become edges, so no illegal move is expanded or played.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use tafl_engine::actions::ActionSpace as Space;
use tafl_engine::{Game, Grid, Move, MoveList, Narrow, Outcome, Wide};

use crate::game::{AnyGame, PyGame};
use crate::planes::{self, Snapshot};
use crate::{args, arrays, numpy_io};

/// Most simulations a search may ask for per game.
const MAX_SIMULATIONS: u32 = 10_000_000;
/// Largest batch of leaves a callback is handed.
const MAX_BATCH: usize = 65_536;
/// Walks that meet a leaf already waiting in the batch, per tree and batch, before that tree
/// gives no more leaves to the batch (its next walks would likely meet it again).
const COLLISIONS_PER_TREE: u32 = 2;
/// Up to this many priors in a batch, all are converted at once; above, only the legal moves'
/// are picked out by numpy (fewer numpy calls for small batches, far fewer bytes for large).
const WHOLE_PRIORS: usize = 1 << 15;

/// One move from a node: its action, prior, and the statistics of the walks through it.
struct Edge<B: Grid> {
    first: Move<B>,
    action: usize,
    prior: f32,
    visits: u32,
    /// Walks through this edge waiting for their leaf's value (each counted as a loss).
    pending: u32,
    /// The sum of the values backed up through this edge, from the view of the side that plays
    /// it (the side to move at its node).
    value_sum: f32,
    /// The node it leads to, once walked (0: none yet; the root is never a child).
    child: usize,
}

/// A position of the tree: unexpanded (waiting for its evaluation, or never reached), expanded
/// with its edges, or over.
#[derive(Default)]
struct Node<B: Grid> {
    edges: Vec<Edge<B>>,
    expanded: bool,
    /// The game's value for the side to move, when the game is over here.
    terminal: Option<f32>,
    /// Whether the node waits in the current batch.
    waiting: bool,
}

/// One game's tree.
struct Tree<B: Grid> {
    root: Game<B>,
    nodes: Vec<Node<B>>,
    /// Simulations finished, and started but waiting for their leaf's value.
    finished: u32,
    waiting: u32,
    /// Values backed up to the root, from the root's side to move's view, and their number.
    root_sum: f64,
    root_count: u32,
}

/// A leaf handed to the callback.
struct Leaf<B: Grid> {
    tree: usize,
    node: usize,
    path: Vec<(usize, usize)>,
    game: Game<B>,
    legal: MoveList<B>,
}

/// What one walk down a tree found.
enum Walk<B: Grid> {
    /// A leaf for the batch.
    Leaf(Leaf<B>),
    /// A finished game, valued and backed up.
    Ended,
    /// A leaf already in the batch: the walk was taken back.
    Collision,
}

/// The value of a finished game for its side to move.
fn ended_value<B: Grid>(outcome: Outcome, game: &Game<B>) -> f32 {
    match outcome.winner() {
        Some(winner) if winner == game.position().side_to_move() => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

impl<B: Grid> Tree<B> {
    fn new(root: Game<B>) -> Tree<B> {
        let mut tree = Tree {
            nodes: vec![Node::default()],
            root,
            finished: 0,
            waiting: 0,
            root_sum: 0.0,
            root_count: 0,
        };
        if let Some(outcome) = tree.root.outcome() {
            let value = ended_value(outcome, &tree.root);
            tree.nodes[0].terminal = Some(value);
            tree.nodes[0].expanded = true;
            tree.root_sum = f64::from(value);
            tree.root_count = 1;
        }
        tree
    }

    /// Whether the root's game is over (nothing to search).
    fn ended(&self) -> bool {
        self.nodes[0].terminal.is_some()
    }

    /// The edge of `node` the PUCT rule picks: the most of `Q + c_puct * P * sqrt(N) / (1 +
    /// n)`, pending walks counted as visits that lost; an unvisited edge's Q is 0.
    fn select(&self, node: usize, c_puct: f32) -> usize {
        let edges = &self.nodes[node].edges;
        let total: u32 = edges.iter().map(|e| e.visits + e.pending).sum();
        let explore = c_puct * (total.max(1) as f32).sqrt();
        let mut best = (0, f32::NEG_INFINITY);
        for (index, edge) in edges.iter().enumerate() {
            let seen = edge.visits + edge.pending;
            let q = if seen == 0 {
                0.0
            } else {
                (edge.value_sum - edge.pending as f32) / seen as f32
            };
            let score = q + explore * edge.prior / (1 + seen) as f32;
            if score > best.1 {
                best = (index, score);
            }
        }
        best.0
    }

    /// Walks down from the root to a leaf, marking the path pending.
    fn walk(&mut self, tree: usize, c_puct: f32) -> PyResult<Walk<B>> {
        let mut path = Vec::new();
        let mut node = 0;
        let mut game = self.root.clone();
        while self.nodes[node].expanded && self.nodes[node].terminal.is_none() {
            let edge = self.select(node, c_puct);
            path.push((node, edge));
            let chosen = &mut self.nodes[node].edges[edge];
            chosen.pending += 1;
            let first = chosen.first;
            let child = chosen.child;
            // Edges are the game's legal moves at their node (`expand`): playing one cannot
            // fail, but a failure would be a bug to report, not a move to play.
            game.play(first).map_err(|error| {
                PyRuntimeError::new_err(format!("internal error in the MCTS: {error}"))
            })?;
            node = if child == 0 {
                self.nodes.push(Node::default());
                let new = self.nodes.len() - 1;
                self.nodes[node].edges[edge].child = new;
                new
            } else {
                child
            };
            if child == 0 {
                break;
            }
        }
        if let Some(value) = self.nodes[node].terminal {
            self.back_up(&path, value);
            return Ok(Walk::Ended);
        }
        if let Some(outcome) = game.outcome() {
            let value = ended_value(outcome, &game);
            let leaf = &mut self.nodes[node];
            leaf.terminal = Some(value);
            leaf.expanded = true;
            self.back_up(&path, value);
            return Ok(Walk::Ended);
        }
        if self.nodes[node].waiting {
            for &(at, edge) in &path {
                self.nodes[at].edges[edge].pending -= 1;
            }
            return Ok(Walk::Collision);
        }
        self.nodes[node].waiting = true;
        self.waiting += 1;
        let legal = game.legal_moves();
        Ok(Walk::Leaf(Leaf {
            tree,
            node,
            path,
            game,
            legal,
        }))
    }

    /// Backs `value` (from the view of the side to move at the path's end) up the path, taking
    /// its pending marks away, and counts a finished simulation.
    fn back_up(&mut self, path: &[(usize, usize)], value: f32) {
        let mut value = value;
        for &(node, edge) in path.iter().rev() {
            // Every move passes the turn: the side that played the edge is the other one.
            value = -value;
            let edge = &mut self.nodes[node].edges[edge];
            edge.pending -= 1;
            edge.visits += 1;
            edge.value_sum += value;
        }
        self.root_sum += f64::from(value);
        self.root_count += 1;
        self.finished += 1;
    }

    /// The root's visit counts, one per action of `space`.
    fn visits(&self, out: &mut [i32]) {
        for edge in &self.nodes[0].edges {
            out[edge.action] = i32::try_from(edge.visits).unwrap_or(i32::MAX);
        }
    }

    /// The mean value backed up to the root, from its side to move's view (0 before any).
    fn root_value(&self) -> f32 {
        if self.root_count == 0 {
            0.0
        } else {
            (self.root_sum / f64::from(self.root_count)) as f32
        }
    }
}

/// Batched PUCT Monte Carlo tree search whose leaves a Python callback evaluates.
///
/// `Mcts(c_puct=1.5, simulations=100, batch_size=8)`. `search(game_or_games, evaluate)` runs
/// `simulations` simulations for each game and calls `evaluate(planes, masks)` with batches of
/// up to `batch_size` leaves: `planes` a uint8 array `[B, len(PLANES), n, n]` (as
/// `encode_planes`), `masks` a bool array `[B, num_actions]` (the leaves' legal moves);
/// it must return `(priors, values)`: `priors` `[B, num_actions]` (any real dtype; the priors of
/// illegal actions are ignored and the legal ones renormalised, all zero meaning uniform; NaN,
/// infinite or negative priors of legal actions are a ValueError) and `values` `[B]` in [-1, 1]
/// (the leaf's value for its side to move; anything else is a ValueError). Finished games are
/// valued by the rules without a call. Returns, for one game, `(visits, value)`: the root's visit
/// counts as an int32 array of `num_actions` (0 for illegal actions) and the mean value of the
/// simulations for the side to move; for a list of games (one board size), `(visits[G,
/// num_actions], values[G])`. Games are read, never changed.
#[pyclass(module = "tafl_engine", name = "Mcts", frozen)]
pub struct Mcts {
    c_puct: f32,
    simulations: u32,
    batch_size: usize,
}

/// The games of one search, on their grid.
enum Roots {
    Narrow(Vec<Game<Narrow>>),
    Wide(Vec<Game<Wide>>),
}

impl Mcts {
    /// Runs the search over `roots`: visit counts (row after row) and root values.
    fn run<B: Grid>(
        &self,
        py: Python<'_>,
        roots: Vec<Game<B>>,
        evaluate: &Bound<'_, PyAny>,
    ) -> PyResult<(Vec<i32>, Vec<f32>, Space)> {
        let size = roots
            .first()
            .map(|g| g.position().rules().size())
            .ok_or_else(|| PyValueError::new_err("give at least one game"))?;
        // The games' rules made their boards: 5x5 to 19x19, which have action spaces.
        let space = Space::new(size).map_err(crate::space::error)?;
        let mut trees: Vec<Tree<B>> = roots.into_iter().map(Tree::new).collect();
        let mut next_tree = 0;
        loop {
            let batch = py.detach(|| self.collect(&mut trees, &mut next_tree))?;
            if batch.is_empty() {
                if trees
                    .iter()
                    .all(|t| t.ended() || t.finished >= self.simulations)
                {
                    break;
                }
                continue;
            }
            self.evaluate_batch(py, &mut trees, batch, evaluate, space)?;
            py.check_signals()?;
        }
        let width = space.num_actions();
        let mut visits = vec![0i32; width * trees.len()];
        for (tree, row) in trees.iter().zip(visits.chunks_exact_mut(width)) {
            tree.visits(row);
        }
        let values = trees.iter().map(Tree::root_value).collect();
        Ok((visits, values, space))
    }

    /// Walks the trees in turn until the batch is full or no tree has simulations left to
    /// start (or each collided too often).
    fn collect<B: Grid>(
        &self,
        trees: &mut [Tree<B>],
        next_tree: &mut usize,
    ) -> PyResult<Vec<Leaf<B>>> {
        let mut batch = Vec::new();
        let mut collisions = vec![0u32; trees.len()];
        loop {
            let open = |index: usize, tree: &Tree<B>| {
                !tree.ended()
                    && tree.finished + tree.waiting < self.simulations
                    && collisions[index] < COLLISIONS_PER_TREE
            };
            let count = trees.len();
            let Some(index) = (0..count)
                .map(|step| (*next_tree + step) % count)
                .find(|&index| open(index, &trees[index]))
            else {
                break;
            };
            *next_tree = (index + 1) % count;
            match trees[index].walk(index, self.c_puct)? {
                Walk::Leaf(leaf) => batch.push(leaf),
                Walk::Ended => {}
                Walk::Collision => collisions[index] += 1,
            }
            if batch.len() >= self.batch_size {
                break;
            }
        }
        Ok(batch)
    }

    /// Hands `batch` to `evaluate`, checks its answer, expands the leaves and backs the values
    /// up. On an error nothing of the answer is used (the trees are thrown away).
    fn evaluate_batch<B: Grid>(
        &self,
        py: Python<'_>,
        trees: &mut [Tree<B>],
        batch: Vec<Leaf<B>>,
        evaluate: &Bound<'_, PyAny>,
        space: Space,
    ) -> PyResult<()> {
        let count = batch.len();
        let size = usize::from(space.size());
        let width = space.num_actions();
        let each = planes::bytes_per_position(space.size());
        let mut plane_bytes = vec![0u8; each * count];
        for (leaf, chunk) in batch.iter().zip(plane_bytes.chunks_exact_mut(each)) {
            planes::write(&Snapshot::of(&leaf.game), chunk);
        }
        let plane_array = numpy_io::array_from_bytes(
            py,
            "u1",
            &[count, planes::PLANES.len(), size, size],
            &plane_bytes,
        )?;
        let masks = arrays::bool_array(py, &[count, width], |out| {
            for (leaf, row) in batch.iter().zip(out.chunks_exact_mut(width)) {
                space
                    .mask_into(&leaf.legal, row)
                    .map_err(crate::space::error)?;
            }
            Ok(())
        })?;
        let answer = evaluate.call1((plane_array, masks))?;
        let (priors, values): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
            answer.extract().map_err(|_| {
                let kind = answer
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string());
                PyTypeError::new_err(format!(
                    "evaluate must return a pair (priors, values), got {kind}"
                ))
            })?;
        let priors = numpy_io::checked_array(&priors, "priors", &[count, width])?;
        let values = numpy_io::checked_array(&values, "values", &[count])?;
        let values = numpy_io::all_f32(&values)?;
        // The priors of the legal moves only, leaf after leaf, move after move.
        let mut rows = Vec::new();
        let mut columns = Vec::new();
        for (index, leaf) in batch.iter().enumerate() {
            for &m in &leaf.legal {
                let action = space.move_to_action_on(m).map_err(crate::space::error)?;
                rows.push(index as i64);
                columns.push(action as i64);
            }
        }
        let legal_priors = if count * width <= WHOLE_PRIORS {
            let all = numpy_io::all_f32(&priors)?;
            let at = |k: usize| all[rows[k] as usize * width + columns[k] as usize];
            (0..rows.len()).map(at).collect()
        } else {
            numpy_io::gather_f32(&priors, &rows, &columns)?
        };
        // Check everything before changing any tree.
        for (index, &value) in values.iter().enumerate() {
            if !(-1.0..=1.0).contains(&value) {
                return Err(PyValueError::new_err(format!(
                    "values[{index}] must be a number in [-1, 1], got {value}"
                )));
            }
        }
        if let Some(k) = legal_priors.iter().position(|&p| !p.is_finite() || p < 0.0) {
            let (index, action) = (rows[k], columns[k]);
            let m = batch[index as usize].legal[k - rows.partition_point(|&r| r < index)];
            return Err(PyValueError::new_err(format!(
                "priors[{index}, {action}] (the legal move {m}) must be a finite number at \
                 least 0, got {}",
                legal_priors[k]
            )));
        }
        let mut next = 0;
        for (index, leaf) in batch.into_iter().enumerate() {
            let mut edges = Vec::with_capacity(leaf.legal.len());
            for &m in &leaf.legal {
                edges.push(Edge {
                    first: m,
                    action: columns[next] as usize,
                    prior: legal_priors[next],
                    visits: 0,
                    pending: 0,
                    value_sum: 0.0,
                    child: 0,
                });
                next += 1;
            }
            let total: f32 = edges.iter().map(|e| e.prior).sum();
            let uniform = 1.0 / edges.len().max(1) as f32;
            for edge in &mut edges {
                edge.prior = if total > 0.0 {
                    edge.prior / total
                } else {
                    uniform
                };
            }
            let tree = &mut trees[leaf.tree];
            let node = &mut tree.nodes[leaf.node];
            node.edges = edges;
            node.expanded = true;
            node.waiting = false;
            tree.waiting -= 1;
            tree.back_up(&leaf.path, values[index]);
        }
        Ok(())
    }
}

#[pymethods]
impl Mcts {
    /// A search with exploration constant `c_puct` (finite, at least 0), `simulations` per game
    /// (1 to 10 000 000) and leaves evaluated `batch_size` at a time (1 to 65 536).
    #[new]
    #[pyo3(signature = (c_puct = 1.5, simulations = None, batch_size = None))]
    fn new(
        c_puct: f64,
        simulations: Option<&Bound<'_, PyAny>>,
        batch_size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Mcts> {
        if !(0.0..=1e6).contains(&c_puct) {
            return Err(PyValueError::new_err(format!(
                "c_puct must be a finite number from 0 to 1e6, got {c_puct}"
            )));
        }
        let simulations = match simulations.filter(|s| !s.is_none()) {
            Some(value) => args::u32_in(value, "simulations", 1, MAX_SIMULATIONS)?,
            None => 100,
        };
        let batch_size = match batch_size.filter(|b| !b.is_none()) {
            Some(value) => args::usize_in(value, "batch_size", 1, MAX_BATCH)?,
            None => 8,
        };
        Ok(Mcts {
            c_puct: c_puct as f32,
            simulations,
            batch_size,
        })
    }

    /// Searches `game_or_games` (a `Game`, or a list of games on boards of one size) with
    /// `evaluate` valuing the leaves; see the class's description for what it is given and
    /// returns. Raises ValueError for an empty list, mixed board sizes or a bad answer of
    /// `evaluate`, TypeError when it does not return a pair; an exception in `evaluate` (or
    /// Ctrl-C) ends the search and is raised as it is.
    fn search<'py>(
        &self,
        py: Python<'py>,
        game_or_games: &Bound<'py, PyAny>,
        evaluate: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let single = game_or_games.cast::<PyGame>().is_ok();
        let games: Vec<Bound<'py, PyGame>> = if single {
            vec![game_or_games.cast::<PyGame>()?.clone()]
        } else {
            game_or_games.extract().map_err(|_| {
                PyTypeError::new_err("game_or_games must be a Game or a list of Games")
            })?
        };
        if games.is_empty() {
            return Err(PyValueError::new_err("give at least one game"));
        }
        let sizes: Vec<u8> = games.iter().map(|g| g.get().size()).collect();
        if let Some(&other) = sizes.iter().find(|&&s| s != sizes[0]) {
            return Err(PyValueError::new_err(format!(
                "all games must be on boards of one size: {0}x{0} and {other}x{other}",
                sizes[0]
            )));
        }
        let mut narrow = Vec::new();
        let mut wide = Vec::new();
        for game in &games {
            match game.get().game() {
                AnyGame::Narrow(g) => narrow.push(g),
                AnyGame::Wide(g) => wide.push(g),
            }
        }
        // One board size is one grid.
        let roots = if wide.is_empty() {
            Roots::Narrow(narrow)
        } else {
            Roots::Wide(wide)
        };
        let (visits, values, space) = match roots {
            Roots::Narrow(roots) => self.run(py, roots, evaluate)?,
            Roots::Wide(roots) => self.run(py, roots, evaluate)?,
        };
        let width = space.num_actions();
        if single {
            let value = values[0].into_pyobject(py)?.into_any();
            Ok((numpy_io::i32_array(py, &[width], &visits)?, value))
        } else {
            Ok((
                numpy_io::i32_array(py, &[games.len(), width], &visits)?,
                numpy_io::f32_array(py, &[games.len()], &values)?,
            ))
        }
    }

    /// The exploration constant.
    #[getter]
    fn c_puct(&self) -> f64 {
        f64::from(self.c_puct)
    }

    /// Simulations per game.
    #[getter]
    fn simulations(&self) -> u32 {
        self.simulations
    }

    /// Leaves per call of the evaluator, at most.
    #[getter]
    fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// `Mcts(c_puct=1.5, simulations=100, batch_size=8)`.
    fn __repr__(&self) -> String {
        format!(
            "Mcts(c_puct={}, simulations={}, batch_size={})",
            self.c_puct, self.simulations, self.batch_size
        )
    }
}
