/*
 * AshtonPerft: perft fixtures for "Ashton Tablut" taken straight from the Tablut Challenge
 * server's own rule code (github AGalassi/TablutCompetition, commit
 * 96983984e42c6b846ff5f6fb473754da3da21292, class
 * it.unibo.ai.didattica.competition.tablut.domain.GameAshtonTablut).
 *
 * This file holds no rule of its own. Every move is judged and played by the server's
 * GameAshtonTablut.checkMove:
 *   - the moves of a state are found by trying, for every piece of the side to move (WHITE
 *     moves W and K, BLACK moves B), every other square of its rank and of its file; the move is
 *     legal exactly when checkMove does not throw, and the state checkMove returns (played on a
 *     clone) is the position after the move, captures and game end included;
 *   - perft(p, 0) = 1 and perft(p, d) = sum of perft(p.play(m), d - 1) over the legal moves m.
 *     A state whose turn is WHITEWIN, BLACKWIN or DRAW after a move is a finished game: it is a
 *     leaf at the depth where it was reached and is not expanded (it counts 0 at greater depths);
 *   - `ends D A W R` says how many of the leaves at depth D are finished games: won by black
 *     (attackers, A), by white (defenders, W), drawn (R).
 *   - Repetition is not applied: checkMove keeps a cache of earlier states (drawConditions) and
 *     declares a draw when a state repeats; this harness clears that cache before every call, so
 *     no position ever counts as repeated and no line ends in a draw (the R column is always 0).
 *
 * The server prints every state it plays to System.out and logs every move to the "GameLog"
 * java.util.logging logger (and a file in the logs folder given to its constructor). The
 * harness points System.out at a null stream, turns that logger off, and writes the fixtures on
 * the real standard output; progress and timings go to standard error.
 *
 * Positions are written as OpenTafl-style records: ranks separated by '/', the first row is
 * rank 1 (the server's board[0], squares a1..i1; the server names board[row][col] as
 * letter(col) + (row + 1)), digits are runs of empty squares, t = black soldier, T = white
 * soldier, K = king; the throne (e5) is written as an empty square or K.
 *
 * Usage: java -cp <server classes>:<these classes> AshtonPerft [START_DEPTH [OTHER_DEPTH]]
 * (defaults 4 and 3: the start position to depth 4, every other position to depth 3), or
 *        java -cp ... AshtonPerft divide RECORD attackers|defenders DEPTH
 * (every legal move of that position with its count below, the pieces it captured, and the
 * game end it made).
 */

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

import it.unibo.ai.didattica.competition.tablut.domain.Action;
import it.unibo.ai.didattica.competition.tablut.domain.GameAshtonTablut;
import it.unibo.ai.didattica.competition.tablut.domain.State;
import it.unibo.ai.didattica.competition.tablut.domain.State.Pawn;
import it.unibo.ai.didattica.competition.tablut.domain.State.Turn;
import it.unibo.ai.didattica.competition.tablut.domain.StateTablut;

public final class AshtonPerft {

    static final String SERVER_COMMIT = "96983984e42c6b846ff5f6fb473754da3da21292";
    static final int SIZE = 9;

    /** The camp squares (for the descriptions and statistics only; the rules are the server's). */
    static final Set<String> CAMPS = Set.of("a4", "a5", "a6", "b5", "d1", "e1", "f1", "e2",
            "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8");
    static final String THRONE = "e5";
    /** Seeds 1..MAX_SEEDS are tried for the midgame positions. */
    static final int MAX_SEEDS = 500;

    /** The real standard output: the fixtures go there. */
    static PrintStream out;
    static GameAshtonTablut game;
    static Path logDir;
    static long checkMoveCalls;

    // ------------------------------------------------------------------------------------------
    // The server's rules

    /** Builds the server's game object, and silences it. */
    static void openGame() throws IOException {
        out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        logDir = Files.createTempDirectory("ashton-perft-logs");
        // The server builds it so for Ashton: repeated states allowed 0, cache infinite (-1).
        game = new GameAshtonTablut(0, -1, logDir.toString(), "perft", "perft");
        Logger log = Logger.getLogger("GameLog");
        log.setLevel(Level.OFF);
        log.setUseParentHandlers(false);
        for (Handler h : log.getHandlers()) {
            log.removeHandler(h);
            h.close();
        }
    }

    static void closeGame() throws IOException {
        try (Stream<Path> files = Files.walk(logDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** A move and the state checkMove made of it. */
    record Child(Action action, State after) {
    }

    /** Plays from-to on a clone of s through checkMove; null when checkMove refuses it. */
    static State play(State s, String from, String to) {
        try {
            Action a = new Action(from, to, s.getTurn());
            game.clearDrawConditions(); // no position ever counts as repeated
            checkMoveCalls++;
            return game.checkMove(s.clone(), a);
        } catch (RuntimeException e) {
            throw new IllegalStateException("checkMove failed unexpectedly on " + from + "-" + to
                    + " in " + record(s), e);
        } catch (Exception refused) {
            return null; // one of the server's rule exceptions: an illegal move
        }
    }

    static boolean moves(State s, Pawn p) {
        Turn t = s.getTurn();
        if (t == Turn.WHITE) {
            return p == Pawn.WHITE || p == Pawn.KING;
        }
        if (t == Turn.BLACK) {
            return p == Pawn.BLACK;
        }
        return false;
    }

    /** The legal moves of s (none when the game is over), in a fixed order. */
    static List<Child> children(State s) {
        List<Child> result = new ArrayList<>();
        for (int row = 0; row < SIZE; row++) {
            for (int col = 0; col < SIZE; col++) {
                if (!moves(s, s.getPawn(row, col))) {
                    continue;
                }
                String from = s.getBox(row, col);
                for (int i = 0; i < SIZE; i++) {
                    if (i != col) { // along the rank
                        add(result, s, from, s.getBox(row, i));
                    }
                }
                for (int i = 0; i < SIZE; i++) {
                    if (i != row) { // along the file
                        add(result, s, from, s.getBox(i, col));
                    }
                }
            }
        }
        return result;
    }

    static void add(List<Child> list, State s, String from, String to) {
        State after = play(s, from, to);
        if (after != null) {
            try {
                list.add(new Child(new Action(from, to, s.getTurn()), after));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static boolean finished(State s) {
        Turn t = s.getTurn();
        return t == Turn.WHITEWIN || t == Turn.BLACKWIN || t == Turn.DRAW;
    }

    // ------------------------------------------------------------------------------------------
    // Perft

    /** Per depth (index 1..depth): leaves, finished games, and captures seen on the way. */
    static final class Counts {
        final long[] leaves;
        final long[] blackWins;
        final long[] whiteWins;
        final long[] draws;
        final long[] captures; // pieces removed by the moves of that ply
        final long[] campThroneCaptures; // ... of which held against a camp or the throne square

        Counts(int depth) {
            leaves = new long[depth + 1];
            blackWins = new long[depth + 1];
            whiteWins = new long[depth + 1];
            draws = new long[depth + 1];
            captures = new long[depth + 1];
            campThroneCaptures = new long[depth + 1];
        }

        long anyEnds() {
            long n = 0;
            for (int d = 1; d < leaves.length; d++) {
                n += blackWins[d] + whiteWins[d] + draws[d];
            }
            return n;
        }

        long anyCampThrone() {
            long n = 0;
            for (long c : campThroneCaptures) {
                n += c;
            }
            return n;
        }
    }

    static Counts perft(State root, int depth) {
        Counts c = new Counts(depth);
        walk(root, 0, depth, c);
        return c;
    }

    static void walk(State s, int ply, int depth, Counts c) {
        for (Child child : children(s)) {
            int d = ply + 1;
            State after = child.after();
            c.leaves[d]++;
            countCaptures(s, child, c, d);
            switch (after.getTurn()) {
                case BLACKWIN -> c.blackWins[d]++;
                case WHITEWIN -> c.whiteWins[d]++;
                case DRAW -> c.draws[d]++;
                default -> {
                    if (d < depth) {
                        walk(after, d, depth, c);
                    }
                }
            }
        }
    }

    /** Statistics only: which enemy pieces the move removed, and what they were held against. */
    static void countCaptures(State before, Child child, Counts c, int d) {
        Pawn enemy = before.getTurn() == Turn.WHITE ? Pawn.BLACK : Pawn.WHITE;
        int toRow = child.action().getRowTo();
        int toCol = child.action().getColumnTo();
        for (int row = 0; row < SIZE; row++) {
            for (int col = 0; col < SIZE; col++) {
                if (before.getPawn(row, col) == enemy && child.after().getPawn(row, col) == Pawn.EMPTY) {
                    c.captures[d]++;
                    int anvilRow = 2 * row - toRow;
                    int anvilCol = 2 * col - toCol;
                    String anvil = before.getBox(anvilRow, anvilCol);
                    if (CAMPS.contains(anvil) || anvil.equals(THRONE)) {
                        c.campThroneCaptures[d]++;
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Positions

    /** The OpenTafl-style record of a board, rank 1 (board[0]) first. */
    static String record(State s) {
        StringBuilder b = new StringBuilder("/");
        for (int row = 0; row < SIZE; row++) {
            int empty = 0;
            for (int col = 0; col < SIZE; col++) {
                char ch = switch (s.getPawn(row, col)) {
                    case BLACK -> 't';
                    case WHITE -> 'T';
                    case KING -> 'K';
                    default -> '.'; // EMPTY, or THRONE (the empty throne)
                };
                if (ch == '.') {
                    empty++;
                    continue;
                }
                if (empty > 0) {
                    b.append(empty);
                    empty = 0;
                }
                b.append(ch);
            }
            if (empty > 0) {
                b.append(empty);
            }
            b.append('/');
        }
        return b.toString();
    }

    static String side(State s) {
        return s.getTurn() == Turn.BLACK ? "attackers" : "defenders";
    }

    /** The server's start for Ashton (Server.java, case 4): StateTablut, white to move. */
    static State start() {
        State s = new StateTablut();
        s.setTurn(Turn.WHITE);
        return s;
    }

    /**
     * A hand-made state: an empty board (the throne square marked THRONE, as the server marks
     * an empty throne), then the pieces at the listed squares, e.g. black("e4 d5"). The king's
     * square replaces the throne mark when it is e5.
     */
    static State handMade(Turn turn, String king, String blacks, String whites) {
        StateTablut s = new StateTablut();
        Pawn[][] board = s.getBoard();
        for (Pawn[] rank : board) {
            java.util.Arrays.fill(rank, Pawn.EMPTY);
        }
        put(board, THRONE, Pawn.THRONE);
        put(board, king, Pawn.KING);
        for (String sq : blacks.trim().split("\\s+")) {
            put(board, sq, Pawn.BLACK);
        }
        for (String sq : whites.trim().split("\\s+")) {
            put(board, sq, Pawn.WHITE);
        }
        s.setTurn(turn);
        return s;
    }

    /** The state of an OpenTafl-style record (as written by record()); e5 empty = THRONE. */
    static State parseRecord(String rec, Turn turn) {
        String[] ranks = rec.replaceAll("^/|/$", "").split("/");
        if (ranks.length != SIZE) {
            throw new IllegalArgumentException("a record has 9 ranks: " + rec);
        }
        StateTablut s = new StateTablut();
        Pawn[][] board = s.getBoard();
        for (int row = 0; row < SIZE; row++) {
            int col = 0;
            for (char ch : ranks[row].toCharArray()) {
                if (Character.isDigit(ch)) {
                    for (int i = 0; i < ch - '0'; i++) {
                        board[row][col++] = Pawn.EMPTY;
                    }
                    continue;
                }
                board[row][col++] = switch (ch) {
                    case 't' -> Pawn.BLACK;
                    case 'T' -> Pawn.WHITE;
                    case 'K' -> Pawn.KING;
                    default -> throw new IllegalArgumentException("unknown piece " + ch + " in " + rec);
                };
            }
            if (col != SIZE) {
                throw new IllegalArgumentException("rank " + (row + 1) + " is not 9 squares: " + rec);
            }
        }
        if (board[4][4] == Pawn.EMPTY) {
            board[4][4] = Pawn.THRONE;
        }
        s.setTurn(turn);
        return s;
    }

    static void put(Pawn[][] board, String square, Pawn p) {
        int col = square.charAt(0) - 'a';
        int row = Integer.parseInt(square.substring(1)) - 1;
        if (p != Pawn.THRONE && p != Pawn.KING && board[row][col] != Pawn.EMPTY) {
            throw new IllegalArgumentException("two pieces on " + square);
        }
        board[row][col] = p;
    }

    static int[] kingAt(State s) {
        for (int row = 0; row < SIZE; row++) {
            for (int col = 0; col < SIZE; col++) {
                if (s.getPawn(row, col) == Pawn.KING) {
                    return new int[] { row, col };
                }
            }
        }
        throw new IllegalStateException("no king in " + record(s));
    }

    static String kingSquare(State s) {
        int[] k = kingAt(s);
        return s.getBox(k[0], k[1]);
    }

    static boolean kingOffThrone(State s) {
        return !kingSquare(s).equals(THRONE);
    }

    static boolean kingNextToThrone(State s) {
        return Set.of("d5", "e4", "f5", "e6").contains(kingSquare(s));
    }

    /** A camp square is at most two steps (rook steps, Manhattan distance) from the king. */
    static boolean kingNearCamp(State s) {
        int[] k = kingAt(s);
        for (int row = 0; row < SIZE; row++) {
            for (int col = 0; col < SIZE; col++) {
                int distance = Math.abs(row - k[0]) + Math.abs(col - k[1]);
                if (distance <= 2 && CAMPS.contains(s.getBox(row, col))) {
                    return true;
                }
            }
        }
        return false;
    }

    static int blacksOutOfCamps(State s) {
        int n = 0;
        for (int row = 0; row < SIZE; row++) {
            for (int col = 0; col < SIZE; col++) {
                if (s.getPawn(row, col) == Pawn.BLACK && !CAMPS.contains(s.getBox(row, col))) {
                    n++;
                }
            }
        }
        return n;
    }

    static int count(State s, Pawn p) {
        return s.getNumberOf(p);
    }

    /** A position reached by a seeded random playout from the start. */
    record Playout(long seed, int plies, State state) {
    }

    /**
     * Plays `plies` random moves from the start (java.util.Random(seed), uniform over the legal
     * moves in the harness's order) never choosing a move that ends the game; null when a side
     * has no move that leaves the game running.
     */
    static Playout playout(long seed) {
        Random random = new Random(seed);
        int plies = 6 + random.nextInt(35); // 6..40
        State s = start();
        for (int i = 0; i < plies; i++) {
            List<Child> running = new ArrayList<>();
            for (Child c : children(s)) {
                if (!finished(c.after())) {
                    running.add(c);
                }
            }
            if (running.isEmpty()) {
                return null;
            }
            s = running.get(random.nextInt(running.size())).after();
        }
        return new Playout(seed, plies, s);
    }

    /** Has the side to move a move that captures against a camp or the throne, or ends the game? */
    static boolean sharpAtOnce(State s) {
        Counts c = perft(s, 1);
        return c.anyEnds() > 0 || c.anyCampThrone() > 0;
    }

    /** A category of midgame position, and the test for it. */
    record Category(String what, Predicate<Playout> test) {
    }

    static List<Category> categories() {
        Predicate<Playout> white = p -> p.state().getTurn() == Turn.WHITE;
        Predicate<Playout> black = p -> p.state().getTurn() == Turn.BLACK;
        Predicate<Playout> offThrone = p -> kingOffThrone(p.state());
        Predicate<Playout> nextToThrone = p -> kingNextToThrone(p.state());
        Predicate<Playout> nearCamp = p -> kingNearCamp(p.state()) && !kingNextToThrone(p.state());
        Predicate<Playout> blacksOut = p -> blacksOutOfCamps(p.state()) >= 8;
        Predicate<Playout> sharp = p -> sharpAtOnce(p.state());
        Predicate<Playout> captured = p -> count(p.state(), Pawn.BLACK) + count(p.state(), Pawn.WHITE) <= 21;
        return List.of(
                new Category("short playout, white to move", white.and(p -> p.plies() <= 10)),
                new Category("short playout, black to move", black.and(p -> p.plies() <= 10)),
                new Category("king off the throne, white to move", white.and(offThrone).and(nextToThrone.negate())),
                new Category("king off the throne, black to move", black.and(offThrone).and(nextToThrone.negate())),
                new Category("king next to the throne, white to move", white.and(nextToThrone)),
                new Category("king next to the throne, black to move", black.and(nextToThrone)),
                new Category("king near a camp, white to move", white.and(nearCamp)),
                new Category("king near a camp, black to move", black.and(nearCamp)),
                new Category("8+ black soldiers out of their camps, white to move", white.and(blacksOut)),
                new Category("8+ black soldiers out of their camps, black to move", black.and(blacksOut)),
                new Category("a capture against a camp or the throne, or a game end, at ply 1; white to move",
                        white.and(offThrone).and(sharp)),
                new Category("a capture against a camp or the throne, or a game end, at ply 1; black to move",
                        black.and(offThrone).and(sharp)),
                new Category("king near a camp, a capture against a camp or the throne or a game end at ply 1",
                        nearCamp.and(sharp)),
                new Category("long playout with pieces captured, white to move",
                        white.and(captured).and(p -> p.plies() >= 30)),
                new Category("long playout with pieces captured, black to move",
                        black.and(captured).and(p -> p.plies() >= 30)));
    }

    /** A hand-made position: what it pins down, and the state. */
    record HandMade(String id, String what, State state) {
    }

    static List<HandMade> handMadePositions() {
        Turn w = Turn.WHITE;
        Turn b = Turn.BLACK;
        return List.of(
                new HandMade("ashton-king-throne-3", "king on the throne with black on e4 d5 f5: "
                        + "black h6-e6 captures it (four sides needed); white d3-e3 captures e4 against the king",
                        handMade(b, "e5", "e4 d5 f5 h6 a4 a6 d9 e9", "d3 c7 g7 g3")),
                new HandMade("ashton-king-e4-2", "king on e4 (next to the empty throne) with black on d4 f4: "
                        + "black e2-e3 or a3-e3 captures it (three sides needed); white c7-c4 / g7-g4 capture "
                        + "d4 / f4 against the king, c7-c5 captures d5 against the empty throne; black h5-g5 "
                        + "captures f5 against the empty throne",
                        handMade(b, "e4", "d4 f4 d5 e2 h5 a3 i6 d9", "c7 g7 f5")),
                new HandMade("ashton-king-e3-camp", "king on e3 next to camp e2: black h4-e4 captures it "
                        + "against the camp (two sides); the king escapes along rank 3 if black does not",
                        handMade(b, "e3", "h4 d1 f1 a5 i5 e9 c8", "c6 g6 d7")),
                new HandMade("ashton-king-b4-camps", "king on b4 between camps a4 and b5, white to move: "
                        + "the king reaches the edge by b4-b1 (camp b5 closes the way up); else black c7-c4 "
                        + "(against a4) or g3-b3 (against b5) captures it",
                        handMade(w, "b4", "c7 g3 a5 a6 e1 e9 h9", "d6 e7 f2")),
                new HandMade("ashton-middle-camps", "black on camps b5, e2, h5 next to the middle camp squares "
                        + "a5, e1, i5: white c7-c5, h3-e3, g7-g5 do not capture them (the server does not "
                        + "use a5 e1 i5 e9 as hostile squares against black)",
                        handMade(w, "e5", "b5 e2 h5 e8 d9 i4", "c7 h3 g7 d3")),
                new HandMade("ashton-other-camps", "black next to non-middle camps: white d7-d5 captures c5 "
                        + "against b5, c2-a2 captures a3 against a4, g2-f2 captures e2 (a black on a camp) "
                        + "against white d2; black h3-d3 captures d2 against camp d1",
                        handMade(w, "e5", "c5 a3 e2 d1 h3 i6 e9", "d7 c2 g2 d2")),
                new HandMade("ashton-camp-moves", "blacks on camps move inside and out of their camp "
                        + "(d1-e1/f1, b5-a5, e9-d9/c9, d1 up to d8 but not d9), blacks that left a camp "
                        + "cannot enter or cross one (c2, b4, a3), nobody crosses or stops on the empty throne",
                        handMade(b, "c7", "d1 b5 a6 e9 e8 i4 h5 c2 b4 a3", "g3 c3 f5 g7")),
                new HandMade("ashton-occupied-throne-hostile", "king on the throne, white on e4 and d5 next to "
                        + "it: black a3-e3 captures e4 and c8-c5 captures d5 against the occupied throne; white "
                        + "g8-g5 captures f5 against the king",
                        handMade(b, "e5", "f5 a3 c8 a4 i5 e9 d1", "e4 d5 g8 c2")));
    }

    // ------------------------------------------------------------------------------------------
    // Output

    static void printHeader(String command) {
        String[] lines = {
                "Perft fixtures for Ashton Tablut, produced by the Tablut Challenge server's own rule code:",
                "github AGalassi/TablutCompetition commit " + SERVER_COMMIT + ",",
                "class it.unibo.ai.didattica.competition.tablut.domain.GameAshtonTablut, method checkMove.",
                "Made by the harness AshtonPerft.java (see its README) with the command:",
                "  " + command,
                "The moves of a position are found by trying every piece of the side to move (defenders:",
                "white soldiers and the king; attackers: black soldiers) towards every other square of its",
                "rank and file through checkMove; a move is legal when checkMove does not throw.",
                "Each block: id, position (OpenTafl record, the first row is rank 1 = the server's",
                "board[0], a1..i1; t black soldier, T white soldier, K king; the throne e5 is written as",
                "empty or K), side (attackers = black to move, defenders = white to move), then",
                "`perft DEPTH COUNT` and `ends DEPTH ATTACKER_WINS DEFENDER_WINS DRAWS`: how many of that",
                "depth's leaves are finished games. A finished game (turn WHITEWIN/BLACKWIN/DRAW after a",
                "move) is a leaf at the depth where it ends and is not expanded: it counts 0 at greater",
                "depths. Repetition is not applied: the server's draw cache is cleared before every move,",
                "so no position counts as repeated and there are no draws.",
                "The comment above a block says where the position comes from; `captures` there counts the",
                "pieces removed by the moves of each ply (all / held against a camp square or e5), a",
                "statistic of this harness, not part of the fixture.",
                "Ashton as the server plays it: white (defenders) moves first; the start position is",
                "StateTablut with the turn set to WHITE, as Server.java does for rules 4.",
        };
        for (String line : lines) {
            out.println("# " + line);
        }
        out.println();
        out.flush();
    }

    static void printBlock(String id, String comment, State s, int depth) {
        long t0 = System.nanoTime();
        long calls0 = checkMoveCalls;
        Counts c = perft(s, depth);
        double seconds = (System.nanoTime() - t0) / 1e9;
        StringBuilder caps = new StringBuilder();
        for (int d = 1; d <= depth; d++) {
            caps.append(d == 1 ? "" : ", ").append(c.captures[d]).append('/').append(c.campThroneCaptures[d]);
        }
        out.println("# " + comment);
        out.println("# captures by ply (all/against a camp or e5): " + caps);
        out.println("id " + id);
        out.println("position " + record(s));
        out.println("side " + side(s));
        for (int d = 1; d <= depth; d++) {
            out.println("perft " + d + " " + c.leaves[d]);
        }
        for (int d = 1; d <= depth; d++) {
            out.println("ends " + d + " " + c.blackWins[d] + " " + c.whiteWins[d] + " " + c.draws[d]);
        }
        out.println();
        out.flush();
        System.err.printf("%-34s depth %d  %8.1f s  %,d checkMove calls%n", id, depth, seconds,
                checkMoveCalls - calls0);
    }

    /**
     * `divide RECORD SIDE DEPTH`: every legal move with its perft(DEPTH - 1), and what the move
     * itself captured or ended.
     */
    static void divide(String rec, String sideName, int depth) {
        Turn turn = switch (sideName) {
            case "attackers" -> Turn.BLACK;
            case "defenders" -> Turn.WHITE;
            default -> throw new IllegalArgumentException("side is attackers or defenders");
        };
        State s = parseRecord(rec, turn);
        if (!record(s).equals(rec)) {
            System.err.println("note: the record reads back as " + record(s));
        }
        long total = 0;
        for (Child child : children(s)) {
            long n;
            if (depth <= 1) {
                n = 1;
            } else if (finished(child.after())) {
                n = 0; // a finished game is not expanded
            } else {
                n = perft(child.after(), depth - 1).leaves[depth - 1];
            }
            total += n;
            StringBuilder line = new StringBuilder(child.action().getFrom() + "-" + child.action().getTo()
                    + " " + n);
            Pawn enemy = turn == Turn.WHITE ? Pawn.BLACK : Pawn.WHITE;
            for (int row = 0; row < SIZE; row++) {
                for (int col = 0; col < SIZE; col++) {
                    if (s.getPawn(row, col) == enemy && child.after().getPawn(row, col) == Pawn.EMPTY) {
                        line.append(" x").append(s.getBox(row, col));
                    }
                }
            }
            if (finished(child.after())) {
                line.append(" ").append(child.after().getTurn().name());
            }
            out.println(line);
        }
        out.println("total " + total);
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("divide")) {
            openGame();
            try {
                divide(args[1], args[2], args.length > 3 ? Integer.parseInt(args[3]) : 1);
            } finally {
                closeGame();
            }
            return;
        }
        int startDepth = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int otherDepth = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        long t0 = System.nanoTime();
        openGame();
        try {
            String command = "java -XX:-StackTraceInThrowable -cp server-classes:classes AshtonPerft"
                    + (args.length > 0 ? " " + String.join(" ", args) : "");
            printHeader(command);

            printBlock("ashton-start", "the server's start position (StateTablut, turn WHITE)", start(),
                    startDepth);

            // Midgame positions: one per category, the first playout (seeds 1, 2, ...) that fits
            // and was not taken already.
            // Playouts are made on demand, seed after seed, and kept.
            List<Playout> playouts = new ArrayList<>();
            Set<Long> taken = new HashSet<>();
            int n = 0;
            for (Category cat : categories()) {
                Playout chosen = null;
                for (int i = 0; chosen == null && i < MAX_SEEDS; i++) {
                    if (i == playouts.size()) {
                        playouts.add(playout(i + 1));
                    }
                    Playout p = playouts.get(i);
                    if (p != null && !taken.contains(p.seed()) && cat.test().test(p)) {
                        chosen = p;
                    }
                }
                if (chosen == null) {
                    System.err.println("no playout for: " + cat.what());
                    continue;
                }
                taken.add(chosen.seed());
                n++;
                State s = chosen.state();
                String comment = String.format(
                        "%s: seeded random playout, java.util.Random(%d), %d plies from the start, "
                                + "never a game-ending move; king on %s, %d black / %d white soldiers, "
                                + "%d black out of camps",
                        cat.what(), chosen.seed(), chosen.plies(), kingSquare(s), count(s, Pawn.BLACK),
                        count(s, Pawn.WHITE), blacksOutOfCamps(s));
                printBlock("ashton-mid-" + n, comment, s, otherDepth);
            }

            for (HandMade h : handMadePositions()) {
                printBlock("ashton-" + h.id().substring("ashton-".length()), "hand-made: " + h.what(),
                        h.state(), otherDepth);
            }
        } finally {
            closeGame();
        }
        System.err.printf("total %.1f s, %,d checkMove calls%n", (System.nanoTime() - t0) / 1e9,
                checkMoveCalls);
    }
}
