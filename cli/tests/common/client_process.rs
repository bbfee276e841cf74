//! The real `tafl-engine` as the client of a fake game server: a TCP listener on 127.0.0.1
//! (port 0, passed with `--port`), the client's stderr gathered by a thread, its connections
//! accepted and its exit awaited with a deadline, so that a hung client fails a test instead of
//! hanging it. Shared by tests/cli/tablut_challenge.rs and tests/cli/hnefatafl_org.rs.
#![allow(dead_code)]

use std::io::{ErrorKind, Read};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What the client wrote to stderr so far.
#[derive(Clone, Default)]
pub struct Stderr(Arc<Mutex<String>>);

impl Stderr {
    pub fn text(&self) -> String {
        self.0.lock().expect("stderr").clone()
    }
}

/// The client process and the listener it connects to. Dropping it kills the client.
pub struct ClientProcess {
    /// `None` while the fake server refuses connections.
    listener: Option<TcpListener>,
    port: u16,
    child: Child,
    pub stderr: Stderr,
    reader: Option<JoinHandle<()>>,
    patience: Duration,
}

impl ClientProcess {
    /// Starts `tafl-engine <subcommand> --port <port>` and `args` (which come after, so that a
    /// flag in them replaces an earlier one). `patience` bounds every wait.
    pub fn start(subcommand: &str, args: &[&str], patience: Duration) -> ClientProcess {
        let program = env!("CARGO_BIN_EXE_tafl-engine");
        ClientProcess::start_program(program, &[], subcommand, args, patience, |_| {})
    }

    /// [`ClientProcess::start`] under a limit of one process for the client's user, as
    /// `prlimit --nproc=1` sets it (`RLIMIT_NPROC`): the client can start no thread at all.
    /// Root ignores that limit, so a test run as root runs the client as the user `nobody`
    /// (65534; cargo's target folder is readable by all). `None` where `prlimit` (util-linux)
    /// is missing.
    #[cfg(target_os = "linux")]
    pub fn start_without_threads(
        subcommand: &str,
        args: &[&str],
        patience: Duration,
    ) -> Option<ClientProcess> {
        use std::os::unix::process::CommandExt;
        let prlimit = ["/usr/bin/prlimit", "/bin/prlimit"]
            .into_iter()
            .find(|path| std::path::Path::new(path).exists())?;
        Some(ClientProcess::start_program(
            prlimit,
            &["--nproc=1", "--", env!("CARGO_BIN_EXE_tafl-engine")],
            subcommand,
            args,
            patience,
            |command| {
                if rustix::process::getuid().is_root() {
                    command.uid(65534).gid(65534);
                }
            },
        ))
    }

    /// `program` with `before` and the client's arguments, set up by `configure` before it
    /// starts.
    fn start_program(
        program: &str,
        before: &[&str],
        subcommand: &str,
        args: &[&str],
        patience: Duration,
        configure: impl FnOnce(&mut Command),
    ) -> ClientProcess {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port_number = listener.local_addr().expect("an address").port();
        let port = port_number.to_string();
        let mut command = Command::new(program);
        command
            .args(before)
            .arg(subcommand)
            .args(["--port", &port])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        configure(&mut command);
        let mut child = command.spawn().expect("the client starts");
        let stderr = Stderr::default();
        let mut pipe = child.stderr.take().expect("piped stderr");
        let collected = stderr.clone();
        let reader = thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buffer) {
                if n == 0 {
                    return;
                }
                let text = String::from_utf8_lossy(&buffer[..n]).into_owned();
                collected.0.lock().expect("stderr").push_str(&text);
            }
        });
        listener.set_nonblocking(true).expect("non-blocking");
        ClientProcess {
            listener: Some(listener),
            port: port_number,
            child,
            stderr,
            reader: Some(reader),
            patience,
        }
    }

    /// Stops listening: the client's attempts to connect are refused (as when the server is
    /// down), until [`ClientProcess::listen_again`].
    pub fn refuse_connections(&mut self) {
        self.listener = None;
    }

    /// Listens again on the same port (std sets `SO_REUSEADDR`: the closed connections' states
    /// do not hold the port).
    pub fn listen_again(&mut self) {
        let listener = TcpListener::bind(("127.0.0.1", self.port)).expect("the same port again");
        listener.set_nonblocking(true).expect("non-blocking");
        self.listener = Some(listener);
    }

    /// Waits until the client's stderr contains `text` (within the patience); returns it.
    pub fn wait_for(&mut self, text: &str) -> String {
        let started = Instant::now();
        loop {
            let stderr = self.stderr.text();
            if stderr.contains(text) {
                return stderr;
            }
            if started.elapsed() > self.patience {
                let _ = self.child.kill();
                panic!("'{text}' never came; stderr:\n{stderr}");
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Accepts the client's next connection: a blocking stream whose reads time out after the
    /// patience.
    pub fn accept(&mut self) -> TcpStream {
        let started = Instant::now();
        let listener = self
            .listener
            .as_ref()
            .expect("listening (listen_again)")
            .try_clone()
            .expect("a clone");
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(error) if error.kind() == ErrorKind::WouldBlock => {
                    if started.elapsed() > self.patience {
                        let _ = self.child.kill();
                        panic!("the client did not connect: {}", self.stderr.text());
                    }
                    thread::sleep(Duration::from_millis(5));
                }
                Err(error) => panic!("accept: {error}"),
            }
        };
        stream.set_nonblocking(false).expect("blocking");
        stream
            .set_read_timeout(Some(self.patience))
            .expect("a timeout");
        stream
    }

    /// Waits for the client to exit, then for the last of its stderr.
    pub fn exit(&mut self) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("the client's status") {
                // Its stderr has closed with it: the reader ends after the last bytes.
                if let Some(reader) = self.reader.take() {
                    let _ = reader.join();
                }
                return status;
            }
            if started.elapsed() > self.patience {
                let _ = self.child.kill();
                panic!("the client did not exit; stderr:\n{}", self.stderr.text());
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for ClientProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks a client's command line as clap reads it: `tafl-engine <subcommand> --help` exits 0
/// and names each of `flags`; each of `mistakes` exits 2 with clap's message.
pub fn check_command_line(subcommand: &str, flags: &[&str], mistakes: &[&[&str]]) {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tafl-engine"))
            .arg(subcommand)
            .args(args)
            .output()
            .expect("the client runs")
    };
    let help = run(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8_lossy(&help.stdout);
    for flag in flags {
        assert!(text.contains(flag), "{flag} in {text}");
    }
    for args in mistakes {
        let output = run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains("try '--help'"), "{stderr}");
    }
}
