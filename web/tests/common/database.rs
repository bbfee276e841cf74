//! The database a test server keeps its games in: a SQLite file (the default), or, with
//! `TAFL_TEST_DB=postgres`, a database of its own in a PostgreSQL that the tests of one binary
//! share. That PostgreSQL is started here (initdb + postgres, as the unprivileged `postgres`
//! user when the tests run as root) in a temporary directory on a free port; it stops and its
//! directory goes when the test binary exits (its guardian shell reads the binary's pipe).

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Whether this run keeps its games in PostgreSQL (`TAFL_TEST_DB=postgres`).
pub fn postgres() -> bool {
    std::env::var("TAFL_TEST_DB").is_ok_and(|db| db == "postgres")
}

/// What `--db` gets for the database a test names by a SQLite path: that path, or the URL of
/// a PostgreSQL database of its own (the same for the same path: a restarted server finds its
/// games), created on first use.
pub fn arg(path: &Path) -> String {
    if !postgres() {
        return path.display().to_string();
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut hasher);
    cluster().database(&format!("t{:016x}", hasher.finish()))
}

/// The game `id` as the database `db` (a `--db` value) holds it, read apart from any server.
pub fn stored(db: &str, id: &str) -> tafl_web::store::GameRow {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime starts");
    runtime.block_on(async {
        tafl_web::store::Store::open(db)
            .await
            .expect("the database opens")
            .load(id)
            .await
            .expect("the game reads")
            .expect("the game is stored")
    })
}

/// The PostgreSQL of this test binary.
pub struct Cluster {
    port: u16,
    bin: PathBuf,
    as_postgres: bool,
    /// Its data directory, and the options its server starts with (`pg_ctl -o`).
    data: PathBuf,
    options: String,
    log: PathBuf,
    /// Its guardian: PostgreSQL stops when this pipe closes (the test binary exits).
    _guardian: Mutex<Child>,
    created: Mutex<HashSet<String>>,
}

/// The directory of PostgreSQL's programs: where `initdb` is on the PATH, else Debian's.
fn bin_dir() -> PathBuf {
    let on_path = std::env::var_os("PATH").into_iter().flat_map(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("initdb"))
            .collect::<Vec<_>>()
    });
    for initdb in on_path {
        if let Ok(real) = std::fs::canonicalize(&initdb) {
            return real.parent().expect("initdb is in a directory").to_owned();
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (Debian's postgresql package)")
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .collect();
    versions.sort();
    versions.pop().expect("a PostgreSQL version is installed")
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

impl Cluster {
    /// A command run as the cluster's owner.
    fn command(&self, program: &str) -> Command {
        let program = self.bin.join(program);
        if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        }
    }

    /// A PostgreSQL of its own (not the binary's shared one: a test that stops it, say),
    /// started; it stops when the test binary exits.
    pub fn start() -> Cluster {
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let bin = bin_dir();
        let as_postgres = is_root();
        let dir = std::env::temp_dir().join(format!("tafl-web-pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        if as_postgres {
            let status = Command::new("chown")
                .args(["postgres:", &dir.display().to_string()])
                .status()
                .expect("chown runs");
            assert!(status.success(), "chown of {}", dir.display());
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let data = dir.join("data");
        let mut cluster = Cluster {
            port,
            bin,
            as_postgres,
            options: format!(
                "-p {port} -k {dir} -c listen_addresses=127.0.0.1 -c fsync=off \
                 -c max_connections=400",
                dir = dir.display()
            ),
            log: dir.join("log"),
            data: data.clone(),
            _guardian: Mutex::new(Command::new("true").spawn().expect("true runs")),
            created: Mutex::new(HashSet::new()),
        };
        let out = cluster
            .command("initdb")
            .args([
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "-D",
            ])
            .arg(&data)
            .output()
            .expect("initdb runs");
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The guardian: starts postgres (pg_ctl, so that `stop` and `start_again` can too),
        // waits for its stdin to close (this binary's end), then stops it (fast shutdown) and
        // removes the directory.
        let script = format!(
            "{pg_ctl} start -w -D {data} -l {log} -o '{options}' >/dev/null; \
             cat >/dev/null; {pg_ctl} stop -D {data} -m fast >/dev/null 2>&1; rm -rf {dir}",
            pg_ctl = cluster.bin.join("pg_ctl").display(),
            data = data.display(),
            log = cluster.log.display(),
            options = cluster.options,
            dir = dir.display(),
        );
        let mut guardian = if as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--", "sh", "-c", &script]);
            command
        } else {
            let mut command = Command::new("sh");
            command.args(["-c", &script]);
            command
        };
        let guardian = guardian
            .stdin(Stdio::piped())
            .spawn()
            .expect("the guardian shell starts");
        cluster._guardian = Mutex::new(guardian);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = Command::new(cluster.bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-p", &port.to_string()])
                .status()
                .is_ok_and(|status| status.success());
            if ready {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "PostgreSQL did not start: {}",
                std::fs::read_to_string(dir.join("log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        cluster
    }

    /// A PostgreSQL client program (`createdb`, `psql`) of the cluster's installation, told
    /// where the cluster listens and as whom to connect.
    fn client(&self, program: &str) -> Command {
        let mut command = Command::new(self.bin.join(program));
        let port = self.port.to_string();
        command.args(["-h", "127.0.0.1", "-p", &port, "-U", "postgres"]);
        command
    }

    /// The URL of database `name`, created when it is not yet.
    pub fn database(&self, name: &str) -> String {
        let mut created = self.created.lock().expect("not poisoned");
        if created.insert(name.to_owned()) {
            let out = self
                .client("createdb")
                .arg(name)
                .output()
                .expect("createdb runs");
            let error = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() || error.contains("already exists"),
                "createdb {name}: {error}"
            );
        }
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// Stops PostgreSQL (fast shutdown: open connections are cut), until [`Cluster::start_again`].
    pub fn stop(&self) {
        let out = self
            .command("pg_ctl")
            .args(["stop", "-w", "-m", "fast", "-D"])
            .arg(&self.data)
            .output()
            .expect("pg_ctl runs");
        assert!(
            out.status.success(),
            "pg_ctl stop: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Starts PostgreSQL again after [`Cluster::stop`], on the same port and data, once it
    /// accepts connections.
    pub fn start_again(&self) {
        let out = self
            .command("pg_ctl")
            .args(["start", "-w", "-D"])
            .arg(&self.data)
            .arg("-l")
            .arg(&self.log)
            .args(["-o", &self.options])
            .output()
            .expect("pg_ctl runs");
        assert!(
            out.status.success(),
            "pg_ctl start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Writes `sql` to `psql` on database `name`, as the tests' own client.
    pub fn psql(&self, name: &str, sql: &str) -> String {
        let mut child = self
            .client("psql")
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", name])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("psql runs");
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(sql.as_bytes())
            .expect("psql reads");
        let out = child.wait_with_output().expect("psql ends");
        assert!(out.status.success(), "psql: {sql}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

/// The PostgreSQL of this test binary, started on first use.
pub fn cluster() -> &'static Cluster {
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    CLUSTER.get_or_init(Cluster::start)
}

/// Runs `sql` on the database `db` (a `--db` value) apart from any server: through SQLite, or
/// through `psql` on the tests' PostgreSQL.
pub fn execute(db: &str, sql: &str) {
    match db.rsplit_once('/') {
        Some((_, name)) if tafl_web::store::is_postgres(db) => {
            cluster().psql(name, sql);
        }
        _ => {
            rusqlite::Connection::open(db)
                .expect("the database opens")
                .execute_batch(sql)
                .expect("the statement runs");
        }
    }
}
