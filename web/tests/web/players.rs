//! Two people and a spectator, each in a browser of their own (three chromium sessions through
//! chromedriver, each with its own profile and so its own localStorage and secrets; the second
//! player's window phone-wide, 390x844): the first creates a "play a friend" game of Tablut on
//! the page, the second opens the invitation link and takes the other seat, the third watches
//! at /g/ID. They play a whole game by clicking squares, and after every move the three boards
//! must equal the library's position (tafl_engine's `Game` replaying the same moves, the oracle)
//! and list every move. Mid-game the server (a child process of the test) is killed with
//! SIGKILL and started again on the same port and database: every page says it reconnects and
//! comes back by itself, without a reload (a mark set on `window` before the kill is still
//! there), missing no move, and the game goes on to its end. Then the finished game's review
//! graph is drawn, the players take a rematch with the sides swapped, and a draw offered on the
//! page is accepted on the other's page. Screenshots: `friend-*.png` in target/web-screenshots/
//! (or `TAFL_WEB_SCREENSHOTS=docs/web` for docs/web-screenshots.md's copies).
//!
//! `#[ignore]`d in a plain `cargo test` (it needs Debian's chromium and chromedriver); `.ci/run`
//! runs it with `cargo test --test web -- --ignored players::`.

use crate::common;
use crate::common::browser;

use std::time::Instant;

use browser::{Browser, Chromedriver, Oracle, shown_pieces};
use common::{Server, scratch};
use serde_json::{Value, json};

/// A short Tablut game that the oracle ends (checked below, not assumed): the attackers open
/// the d-file's foot, a defender fills it and is captured there, and the king walks down the
/// d-file to the edge: the defenders win by escape after six plies.
const SHORT_TABLUT: [&str; 6] = ["d1-a1", "d5-d1", "a1-b1", "e5-d5", "b1-c1", "d5-d1"];

/// The ply before which the server is killed and restarted (mid-game).
const RESTART_BEFORE: usize = 3;

/// Asserts that `browser`'s page shows the oracle's position after its moves, live, with every
/// move in its move list: that page.
async fn shows(browser: &Browser, who: &str, oracle: &Oracle) -> Value {
    let ply = oracle.ply();
    let page = browser
        .wait(&format!("{who}'s page at ply {ply}"), |p| {
            p["live"] == json!(ply) && p["ply"] == json!(ply)
        })
        .await;
    assert_eq!(
        shown_pieces(&page),
        oracle.view().0,
        "{who}'s board is not the library's position at ply {ply}"
    );
    assert_eq!(page["listed"], json!(ply), "{who}'s move list: {page}");
    page
}

/// The server's moves of game `id`, as texts.
fn served_moves(server: &Server, id: &str) -> (Value, Vec<String>) {
    let state = server.ok("GET", &format!("/api/games/{id}"), None);
    let moves = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().unwrap_or_default().to_owned())
        .collect();
    (state, moves)
}

/// The secrets a browser keeps, by game id.
async fn kept_secrets(browser: &Browser) -> Value {
    browser
        .run("return JSON.parse(localStorage.getItem('tafl-secrets') || '{}');")
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: .ci/run installs them and runs it with --ignored"]
async fn two_people_and_a_spectator_play_tablut_in_three_browsers_through_a_server_restart() {
    let started = Instant::now();
    let dir = scratch("players");
    let db = dir.join("games.sqlite");
    let mut server = Server::start("127.0.0.1:0", &db, &["--rate", "0"]);
    let chromedriver = Chromedriver::start();
    let (host, guest, watcher) = tokio::join!(
        chromedriver.open(1280, 900),
        chromedriver.open(390, 844),
        chromedriver.open(1280, 900)
    );

    // The host creates the game on the start page: Tablut, play a friend, attackers, 5 + 3.
    host.open_form(&server.url("/")).await;
    host.select("#variant", "tablut").await;
    host.click("input[name=mode][value=friend]").await;
    assert_eq!(
        host.run("return document.getElementById('level-label').hidden;")
            .await,
        json!(true),
        "no engine strength to choose when playing a friend"
    );
    host.select("#human", "attackers").await;
    host.select("#clock", "300+3").await;
    host.click("#start").await;
    let link = host
        .wait_for(
            "the invitation link",
            30,
            "return document.getElementById('invite').hidden ? null \
             : document.getElementById('invite-link').value;",
        )
        .await;
    let link = link.as_str().expect("a link").to_owned();
    let page = host
        .wait("the host's board", |p| p["live"] == json!(0))
        .await;
    let id = page["path"]
        .as_str()
        .and_then(|p| p.strip_prefix("/g/"))
        .expect("the game's address")
        .to_owned();
    assert_eq!(link, server.url(&format!("/g/{id}?join")));
    assert!(
        host.wait_for(
            "the host's status",
            10,
            "return document.getElementById('status').textContent;"
        )
        .await
        .as_str()
        .unwrap_or_default()
        .contains("friend"),
        "the host is told the game waits for the friend"
    );

    assert_eq!(
        guest.run("return window.innerWidth;").await,
        json!(390),
        "the guest's window is phone-wide"
    );
    // The guest (a phone) opens the link and takes the defenders' seat; the host's page
    // learns it by itself and gives the host the first move.
    guest.goto(&link).await;
    guest
        .wait("the guest's seat", |p| {
            p["live"] == json!(0) && p["path"] == json!(format!("/g/{id}"))
        })
        .await;
    host.wait("the host's turn", |p| p["turn"] == json!("person"))
        .await;
    assert_eq!(
        host.run("return document.getElementById('invite').hidden;")
            .await,
        json!(true),
        "the invitation goes once the seat is taken"
    );
    // Each browser holds its own seat's secret, and only its own.
    let (host_secrets, guest_secrets) = (kept_secrets(&host).await, kept_secrets(&guest).await);
    let host_secret = host_secrets[&id].as_str().expect("the host's secret");
    let guest_secret = guest_secrets[&id].as_str().expect("the guest's secret");
    assert_ne!(host_secret, guest_secret);
    let (_, as_guest) =
        server.call_as("GET", &format!("/api/games/{id}"), None, Some(guest_secret));
    assert_eq!(as_guest["you"], json!(["defenders"]));
    assert_eq!(
        as_guest["seats"],
        json!({"attackers": "person", "defenders": "person"})
    );

    // The spectator opens the game's address: a board that follows, moving nothing.
    watcher.goto(&server.url(&format!("/g/{id}"))).await;
    watcher
        .wait("the spectator's board", |p| {
            p["live"] == json!(0) && p["turn"] == json!("watching")
        })
        .await;
    assert_eq!(kept_secrets(&watcher).await, json!({}));
    let status = watcher.page().await["status"].clone();
    assert_eq!(status, json!("The attackers to move · you are watching"));

    let rules = served_moves(&server, &id).0["rules"]
        .as_str()
        .expect("rules")
        .to_owned();
    let mut oracle = Oracle::new(&rules);
    let people = [(&host, "the host"), (&guest, "the guest")];
    let everyone = [
        (&host, "the host"),
        (&guest, "the guest"),
        (&watcher, "the spectator"),
    ];
    let mut restarted = None;
    for (ply, text) in SHORT_TABLUT.iter().enumerate() {
        if ply == RESTART_BEFORE {
            // kill -9 mid-game, and the same binary again on the same port and database.
            for (browser, _) in everyone {
                browser
                    .run("window.taflMark = 'loaded once'; return 1;")
                    .await;
            }
            let listen = server.address.clone();
            server.kill();
            for (browser, who) in everyone {
                let cut = browser
                    .wait(&format!("{who}'s page to say it reconnects"), |p| {
                        p["status"]
                            .as_str()
                            .unwrap_or_default()
                            .contains("reconnecting")
                    })
                    .await;
                assert_eq!(cut["live"], json!(ply), "{who}: {cut}");
            }
            server = Server::start(&listen, &db, &["--rate", "0"]);
            restarted = Some(Instant::now());
        }
        let (mover, who) = people[ply % 2];
        mover
            .wait(&format!("{who}'s turn at ply {ply}"), |p| {
                p["turn"] == json!("person")
                    && p["live"] == json!(ply)
                    && !p["status"]
                        .as_str()
                        .unwrap_or_default()
                        .contains("reconnecting")
            })
            .await;
        let (from, to) = text.split_once('-').expect("a move");
        mover.click_move(from, to).await;
        oracle.play(text);
        for (browser, who) in everyone {
            let page = shows(browser, who, &oracle).await;
            if let Some(restarted) = restarted.filter(|_| ply == RESTART_BEFORE) {
                eprintln!(
                    "{who}'s page shows the first move after the restart {:.1} s after it",
                    restarted.elapsed().as_secs_f64()
                );
            }
            assert!(
                !page["status"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("reconnecting"),
                "{who}: {page}"
            );
        }
        let (_, moves) = served_moves(&server, &id);
        assert_eq!(moves, SHORT_TABLUT[..=ply], "the server's moves");
        if ply == RESTART_BEFORE {
            // Between people: nothing asks the engine to move, nothing takes a move back.
            for (browser, who) in people {
                assert_eq!(
                    browser
                        .run("return ['move-now', 'takeback'].map(b => document.getElementById(b).hidden);")
                        .await,
                    json!([true, true]),
                    "{who}'s buttons"
                );
            }
            for (browser, who) in everyone {
                assert_eq!(
                    browser.run("return window.taflMark || null;").await,
                    json!("loaded once"),
                    "{who}'s page was reloaded"
                );
            }
            host.screenshot("friend-attackers.png").await;
            guest.screenshot("friend-defenders-phone.png").await;
            watcher.screenshot("friend-spectator.png").await;
        }
    }

    // The end: the library's result, on the server and on every page.
    let outcome = oracle.outcome().expect("the short line ends the game");
    let (state, _) = served_moves(&server, &id);
    assert_eq!(state["result"]["text"], json!(outcome));
    // Each in their own words: the loser lost to a friend (not to the engine), the spectator
    // reads the result alone.
    for ((browser, who), opening) in
        everyone
            .into_iter()
            .zip(["You lose.", "You win!", "The defenders"])
    {
        let page = browser
            .wait(&format!("{who}'s page to show the end"), |p| {
                p["turn"] == json!("over")
            })
            .await;
        let status = page["status"].as_str().unwrap_or_default();
        assert!(
            status.starts_with(opening) && status.contains("defenders win: the king escaped"),
            "{who}: {status}"
        );
    }

    // The finished game's review: a point for every position on both players' pages.
    let positions = SHORT_TABLUT.len() + 1;
    for (browser, who) in people {
        let points = browser
            .wait_for(
                &format!("{who}'s review graph"),
                120,
                &format!(
                    "const n = document.querySelectorAll('#review-graph circle.point').length;
                     return n === {positions} ? n : null;"
                ),
            )
            .await;
        assert_eq!(points, json!(positions));
    }
    host.screenshot("friend-review.png").await;

    // A rematch, sides swapped: the host asks for it, the guest's page takes the other seat.
    host.click("#rematch").await;
    let page = host
        .wait("the rematch on the host's page", |p| {
            p["path"] != json!(format!("/g/{id}")) && p["live"] == json!(0)
        })
        .await;
    let rematch = page["path"]
        .as_str()
        .and_then(|p| p.strip_prefix("/g/"))
        .expect("the rematch's address")
        .to_owned();
    guest
        .wait_for(
            "the guest's page to offer joining the host's rematch",
            30,
            "const b = document.getElementById('rematch');
             return !b.hidden && b.dataset.joins === '1' && b.textContent.includes('asks for a rematch');",
        )
        .await;
    guest.click("#rematch").await;
    guest
        .wait("the guest's seat in the rematch", |p| {
            p["path"] == json!(format!("/g/{rematch}")) && p["turn"] == json!("person")
        })
        .await;
    let (_, as_guest) = server.call_as(
        "GET",
        &format!("/api/games/{rematch}"),
        None,
        kept_secrets(&guest).await[&rematch].as_str(),
    );
    assert_eq!(
        as_guest["you"],
        json!(["attackers"]),
        "the sides are swapped"
    );
    let mut oracle = Oracle::new(&rules);
    for (ply, text) in SHORT_TABLUT[..2].iter().enumerate() {
        let (mover, who) = people[(ply + 1) % 2];
        mover
            .wait(&format!("{who}'s turn in the rematch"), |p| {
                p["turn"] == json!("person") && p["live"] == json!(ply)
            })
            .await;
        let (from, to) = text.split_once('-').expect("a move");
        mover.click_move(from, to).await;
        oracle.play(text);
        for (browser, who) in people {
            shows(browser, who, &oracle).await;
        }
    }

    // A draw: offered on the guest's page, accepted on the host's.
    guest.click("#offer-draw").await;
    host.wait_for(
        "the host's accept button",
        30,
        "return !document.getElementById('accept-draw').hidden;",
    )
    .await;
    // Said in words too, to each in their own.
    for (browser, words) in [
        (
            &guest,
            "Your move (the attackers). You offered a draw: waiting for your friend’s answer.",
        ),
        (
            &host,
            "Your friend is to move (the attackers). Your friend offers a draw.",
        ),
    ] {
        browser.wait(words, |p| p["status"] == json!(words)).await;
    }
    host.click("#accept-draw").await;
    oracle.agree_draw();
    let outcome = oracle.outcome().expect("a draw agreed");
    for (browser, who) in people {
        let page = browser
            .wait(&format!("{who}'s page to show the draw"), |p| {
                p["turn"] == json!("over")
            })
            .await;
        assert!(
            page["status"]
                .as_str()
                .unwrap_or_default()
                .starts_with("Draw"),
            "{who}: {page}"
        );
    }
    let (state, moves) = served_moves(&server, &rematch);
    assert_eq!(state["result"]["text"], json!(outcome));
    assert_eq!(moves, SHORT_TABLUT[..2]);

    for browser in [host, guest, watcher] {
        browser.close().await;
    }
    eprintln!(
        "three browsers: two games and a restart in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
