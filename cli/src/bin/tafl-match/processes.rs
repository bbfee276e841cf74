//! The engine processes of a match, so that none is left behind.
//!
//! On unix each engine is started in a process group of its own, and ended by killing the whole
//! group: an engine started through `sh -c ...` (or a script that starts helpers) leaves no
//! grandchild running. Every group alive is listed here, so that SIGINT, SIGTERM or SIGHUP to
//! `tafl-match` kills them all before it exits ([`watch_signals`], [`kill_all`]).
//!
//! Elsewhere only the engine process itself can be killed (`Child::kill`), and the signals are
//! not watched: the system's defaults apply.

use std::io;
use std::process::{Child, Command};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, MutexGuard};

/// The groups alive, by their leader's process id; once closed, no engine may start.
struct Live {
    groups: Vec<u32>,
    closed: bool,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    groups: Vec::new(),
    closed: false,
});

fn live() -> MutexGuard<'static, Live> {
    // A thread that panicked while holding the lock left the list whole: go on with it.
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts `command` in a process group of its own and lists it. The list is locked while the
/// process starts, so that [`kill_all`] cannot miss one that is being started.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let mut live = live();
    if live.closed {
        return Err(io::Error::other("tafl-match is stopping"));
    }
    let child = command.spawn()?;
    live.groups.push(child.id());
    Ok(child)
}

/// Kills `child` and everything in its process group, and reaps it.
///
/// The group is killed before the child is reaped when it has not been yet; when it has (it
/// exited and `try_wait` saw it), its number still names the group while any member is alive
/// (POSIX keeps a process group's id from reuse while the group exists), which is the case that
/// matters; an empty group makes the kill a no-op.
pub fn end(child: &mut Child) {
    let id = child.id();
    live().groups.retain(|&group| group != id);
    kill_group(id);
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(unix)]
fn kill_group(id: u32) {
    let leader = i32::try_from(id)
        .ok()
        .and_then(rustix::process::Pid::from_raw);
    if let Some(leader) = leader {
        // ESRCH (the group is empty) is the usual answer after a clean exit.
        let _ = rustix::process::kill_process_group(leader, rustix::process::Signal::KILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_id: u32) {}

/// Kills every engine's group and lets no more start: for a `tafl-match` that is exiting on a
/// signal. Returns how many groups it killed.
pub fn kill_all() -> usize {
    let mut live = live();
    live.closed = true;
    let groups = std::mem::take(&mut live.groups);
    for &group in &groups {
        kill_group(group);
    }
    groups.len()
}

/// Watches SIGINT, SIGTERM and SIGHUP (unix): the number of the first one that comes is stored
/// in the flag returned (0 until then). A second SIGINT or SIGTERM exits at once with status 1,
/// for someone who presses Ctrl-C twice.
pub fn watch_signals() -> Arc<AtomicUsize> {
    let caught = Arc::new(AtomicUsize::new(0));
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        use signal_hook::flag;
        let seen_one = Arc::new(std::sync::atomic::AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let Ok(number) = usize::try_from(signal) else {
                continue;
            };
            // Registered in this order, the exit is checked before the first signal sets the
            // flag it checks.
            if signal != SIGHUP {
                let _ = flag::register_conditional_shutdown(signal, 1, Arc::clone(&seen_one));
            }
            let _ = flag::register(signal, Arc::clone(&seen_one));
            let _ = flag::register_usize(signal, Arc::clone(&caught), number);
        }
    }
    caught
}

/// The name of a signal that [`watch_signals`] watches.
pub fn signal_name(number: usize) -> &'static str {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        match i32::try_from(number) {
            Ok(SIGINT) => return "SIGINT",
            Ok(SIGTERM) => return "SIGTERM",
            Ok(SIGHUP) => return "SIGHUP",
            _ => {}
        }
    }
    let _ = number;
    "a signal"
}
