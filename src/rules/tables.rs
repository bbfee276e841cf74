//! A grid's rule tables ([`RuleGrid`]): the per-size masks of `geometry` and the registry of
//! custom rule sets, each set compiled once per grid and kept for the run.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::board::{Narrow, Wide};
use crate::moves::MoveGrid;

use super::custom::{RuleSet, RuleSpec};
use super::geometry::{Geometry, NARROW_GEOMETRIES, WIDE_GEOMETRIES};

/// A grid's rule tables: the masks of each board size it holds (built at compile time) and the
/// custom rule sets compiled for it. Implemented here for both grids; a supertrait of
/// [`Grid`](crate::Grid).
pub trait RuleGrid: MoveGrid {
    /// The masks of a board of `size` (at most `MAX_SIZE`), built at compile time.
    #[doc(hidden)]
    fn geometry(size: u8) -> &'static Geometry<Self>;
    /// The custom rule sets compiled for this grid, by registry index.
    #[doc(hidden)]
    fn rule_sets() -> &'static Slots<Self>;
}

impl RuleGrid for Narrow {
    #[inline(always)]
    fn geometry(size: u8) -> &'static Geometry<Narrow> {
        // `size` is at most 11 (checked by `Rules`), so the index is in range.
        &NARROW_GEOMETRIES[size as usize]
    }
    #[inline(always)]
    fn rule_sets() -> &'static Slots<Narrow> {
        &NARROW_SLOTS
    }
}

impl RuleGrid for Wide {
    #[inline(always)]
    fn geometry(size: u8) -> &'static Geometry<Wide> {
        // `size` is at most 19 (checked by `Rules`), so the index is in range.
        &WIDE_GEOMETRIES[size as usize]
    }
    #[inline(always)]
    fn rule_sets() -> &'static Slots<Wide> {
        &WIDE_SLOTS
    }
}

/// How many sets of custom rules one run can hold (index 0 stands for the classic rules).
pub(crate) const REGISTRY_CAPACITY: usize = 1 << 12;

/// The registered sets of one grid, by index: looked up on every move, so a slot is read without
/// a lock.
pub type Slots<B> = [OnceLock<&'static RuleSet<B>>; REGISTRY_CAPACITY];

/// The sets compiled for the narrow grid.
pub(crate) static NARROW_SLOTS: Slots<Narrow> = [const { OnceLock::new() }; REGISTRY_CAPACITY];

/// The sets compiled for the wide grid.
pub(crate) static WIDE_SLOTS: Slots<Wide> = [const { OnceLock::new() }; REGISTRY_CAPACITY];

/// Every registered spec by index, and which index each has, so that equal rules share one
/// index on both grids.
struct Registry {
    specs: Vec<RuleSpec>,
    indices: HashMap<RuleSpec, u16>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

/// The index of `spec` in the registry, registering it the first time and compiling it for the
/// grid `B` if it is not yet; `None` when the registry is full.
pub(crate) fn register<B: RuleGrid>(spec: RuleSpec) -> Option<u16> {
    // A poisoned lock only means a panic elsewhere while it was held; the registry is still whole
    // (a spec is added to both of its parts at once, after its index is known).
    let mut guard = REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let registry = guard.get_or_insert_with(|| Registry {
        specs: Vec::new(),
        indices: HashMap::new(),
    });
    let index = match registry.indices.get(&spec) {
        Some(&index) => index,
        None => {
            let index = u16::try_from(registry.specs.len() + 1).ok()?;
            if usize::from(index) >= REGISTRY_CAPACITY {
                return None;
            }
            registry.specs.push(spec.clone());
            registry.indices.insert(spec, index);
            index
        }
    };
    compile_locked::<B>(registry, index)
}

/// Compiles the registered spec `index` for the grid `B`, if it is not yet.
pub(crate) fn compile_for<B: RuleGrid>(index: u16) -> Option<u16> {
    let mut guard = REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    compile_locked::<B>(guard.as_mut()?, index)
}

/// [`compile_for`] with the registry's lock held.
fn compile_locked<B: RuleGrid>(registry: &Registry, index: u16) -> Option<u16> {
    let slot = B::rule_sets().get(usize::from(index))?;
    if slot.get().is_none() {
        let spec = registry.specs.get(usize::from(index) - 1)?;
        let set: &'static RuleSet<B> = Box::leak(Box::new(RuleSet::compile(spec.clone())));
        // Slots are set under the lock, so this one is still empty.
        let _ = slot.set(set);
    }
    Some(index)
}

/// The registered set at `index` (from [`register`]), compiled for the grid `B`.
#[inline(always)]
pub(crate) fn lookup<B: RuleGrid>(index: u16) -> Option<&'static RuleSet<B>> {
    B::rule_sets()
        .get(usize::from(index))
        .and_then(|slot| slot.get().copied())
}
