/*
 * OpenTaflPerft: perft fixtures for OpenTafl rules strings, counted by OpenTafl's own move
 * generator and game-end checks (github jslater89/OpenTafl, tag v0.4.8.0b).
 *
 * This file holds no rule of its own. A rules string is read by OpenTafl's
 * RulesSerializer.loadRulesRecord, exactly as OpenTafl reads the `rules` line an external engine
 * is sent, and a Game is made from it. Then:
 *   - the moves of a state are, for every taflman of the side to move (Side.getTaflmen), every
 *     square of Taflman.getAllowableDestinations;
 *   - a move is played as OpenTafl's AI plays it (GameTreeState.considerMove): GameState.moveTaflman
 *     (captures, shieldwalls, Linnaean captures), then Game.advanceState without recording the
 *     state in the game's history (so no position ever counts as repeated), which passes the turn
 *     and runs GameState.checkVictory;
 *   - a state whose checkVictory is ATTACKER_WIN, DEFENDER_WIN or DRAW is a finished game: a leaf
 *     at the depth where it is reached, never expanded. perft D counts the states at depth D;
 *     `ends D A W R` says how many of them are finished games won by the attackers (A), by the
 *     defenders (W), drawn (R).
 * moveTaflman is protected, hence this class's package (OpenTafl's own engine package).
 *
 * Midgames: seeded random playouts (java.util.Random, one move drawn uniformly from the list
 * above at each ply) of a drawn number of plies, kept when the game is not over at the end. The
 * position is written by OpenTafl's PositionSerializer into the rules string's `start:` field,
 * and `atkf:` says who is to move; the new string is read back by loadRulesRecord and counted
 * from there, so each block is what an engine given that string must find.
 *
 * Usage: java -cp <OpenTafl classes and jars>:<these classes>
 *            com.manywords.softworks.tafl.engine.OpenTaflPerft [START_DEPTH [SAMPLE_DEPTH [SAMPLES [ID...]]]]
 * (defaults 3, 3 and 4; every game) writes the fixture file on standard output, progress on
 * standard error; given ids, only those games' blocks, without the file's header (which
 * `OpenTaflPerft header` writes alone), so that games can be counted in separate processes;
 *        ... OpenTaflPerft divide "RULES STRING" DEPTH
 * lists every move of that string's start with its count at DEPTH - 1 below it.
 */
package com.manywords.softworks.tafl.engine;

import com.manywords.softworks.tafl.notation.PositionSerializer;
import com.manywords.softworks.tafl.notation.RulesSerializer;
import com.manywords.softworks.tafl.rules.Coord;
import com.manywords.softworks.tafl.rules.Rules;
import com.manywords.softworks.tafl.rules.Taflman;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public final class OpenTaflPerft {

    /**
     * The games: an id, then a whole rules string. The first three are OpenTafl's own
     * external-rules.conf (its unbuilt/ folder at v0.4.8.0b) word for word; the others are
     * strings written for these fixtures, to reach the rest of the string's fields on large
     * boards: Copenhagen's fields on hnefatafl.org's 13x13 start (corner escape, strong
     * shieldwalls, edge forts, the third repetition lost), and a 17x17 game with forts, a
     * middleweight king with a speed limit, an armed king and Linnaean captures.
     */
    static final String[][] GAMES = {
        {"sea-battle-13",
         "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/"},
        {"tablut-15",
         "dim:15 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: start:/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/"},
        {"alea-evangelii-19",
         "dim:19 name:Alea_Evangelii esc:c atkf:y cor:a1,a2,b1,b2,a18,b18,a19,b19,r1,r2,s1,s2,r18,r19,s18,s19, cens: cenp:tcnkTCNK cenh: cenhe:tcnkTCNK tfr:w start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2/"},
        {"copenhagen-13",
         "dim:13 name:Copenhagen_13x13 atkf:y tfr:w sw:s efe:y start:/3ttttttt3/6t6/13/t5T5t/t5T5t/t4TTT4t/tt1TTTKTTT1tt/t4TTT4t/t5T5t/t5T5t/13/6t6/3ttttttt3/"},
        {"forts-17",
         "dim:17 name:Forts_17x17 esc:c atkf:n ks:m ka:h linc:y spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,2,-1,-1, afor:a8,a9,a10,b9,q8,q9,q10,p9,h1,i1,j1,i2,h17,i17,j17,i16, aforp:tcnk afors:tcnk aforh:T dfor:h8,j8,h10,j10, dforp:TCNK dfors:TCNK dforh:t start:/6ttttt6/8t8/17/8T8/t15t/t7T7t/t6TTT6t/t15t/tt1TTTTTKTTTTT1tt/t15t/t6TTT6t/t7T7t/t15t/8T8/17/8t8/6ttttt6/"},
    };

    static PrintStream out;

    /** A move: the taflman and where it goes. */
    record Move(char taflman, Coord from, Coord to) {
    }

    static Game newGame(String rulesString) {
        try {
            Rules rules = RulesSerializer.loadRulesRecord(rulesString);
            return new Game(rules, null);
        } catch (Exception e) {
            throw new IllegalStateException("OpenTafl refused " + rulesString, e);
        }
    }

    /** Every legal move of the side to move, in OpenTafl's order. */
    static List<Move> moves(GameState state) {
        List<Move> moves = new ArrayList<>();
        for (char taflman : state.getCurrentSide().getTaflmen()) {
            Coord from = Taflman.getCurrentSpace(state, taflman);
            for (Coord to : Taflman.getAllowableDestinations(state, taflman)) {
                moves.add(new Move(taflman, from, to));
            }
        }
        return moves;
    }

    /** The state after `m`, victory checked, as OpenTafl's AI makes it. */
    static GameState play(Game game, GameState state, Move m) {
        GameState next = state.moveTaflman(m.taflman(), m.to());
        if (next.getLastMoveResult() < GameState.LOWEST_NONERROR_RESULT) {
            throw new IllegalStateException("OpenTafl refused its own move " + m);
        }
        char berserker = next.getBerserkingTaflman();
        game.advanceState(state, next, berserker == Taflman.EMPTY, berserker, false);
        next.checkVictory();
        return next;
    }

    static boolean finished(GameState state) {
        return state.checkVictory() > GameState.HIGHEST_NONTERMINAL_RESULT;
    }

    /** Leaves and finished games at each depth 1..depth below `state`: counts[d][0..3]. */
    static void count(Game game, GameState state, int ply, int depth, long[][] counts) {
        for (Move m : moves(state)) {
            GameState next = play(game, state, m);
            long[] here = counts[ply + 1];
            here[0]++;
            int victory = next.checkVictory();
            if (victory == GameState.ATTACKER_WIN) {
                here[1]++;
            } else if (victory == GameState.DEFENDER_WIN) {
                here[2]++;
            } else if (victory == GameState.DRAW) {
                here[3]++;
            } else if (ply + 1 < depth) {
                count(game, next, ply + 1, depth, counts);
            }
        }
    }

    /** The rules string with its `start:` and `atkf:` fields replaced. */
    static String withStart(String rulesString, String record, boolean attackersFirst) {
        List<String> fields = new ArrayList<>();
        boolean atkfSeen = false;
        for (String field : rulesString.trim().split(" ")) {
            if (field.startsWith("start:") || field.startsWith("starti:")) {
                continue;
            }
            if (field.startsWith("atkf:")) {
                field = "atkf:" + (attackersFirst ? "y" : "n");
                atkfSeen = true;
            }
            fields.add(field);
        }
        if (!atkfSeen) {
            fields.add("atkf:" + (attackersFirst ? "y" : "n"));
        }
        fields.add("start:" + record);
        return String.join(" ", fields);
    }

    static void block(String id, String rulesString, int depth) {
        long started = System.nanoTime();
        Game game = newGame(rulesString);
        GameState state = game.getCurrentState();
        boolean attackers = state.getCurrentSide().isAttackingSide();
        long[][] counts = new long[depth + 1][4];
        count(game, state, 0, depth, counts);
        out.println();
        out.println("id " + id);
        out.println("rules " + rulesString);
        out.println("side " + (attackers ? "attackers" : "defenders"));
        for (int d = 1; d <= depth; d++) {
            out.println("perft " + d + " " + counts[d][0]);
        }
        for (int d = 1; d <= depth; d++) {
            out.println("ends " + d + " " + counts[d][1] + " " + counts[d][2] + " " + counts[d][3]);
        }
        out.flush();
        System.err.printf("%s: perft %d %d in %.1f s%n", id, depth, counts[depth][0],
                (System.nanoTime() - started) / 1e9);
    }

    /**
     * A midgame: the first seed from `seed` on whose playout (8 to 40 plies) is not over at its
     * end and leaves the side to move with a move; the rules string of that position.
     */
    static String midgame(String rulesString, long seed) {
        for (long tried = seed; ; tried++) {
            Random random = new Random(tried);
            Game game = newGame(rulesString);
            GameState state = game.getCurrentState();
            int plies = 8 + random.nextInt(33);
            boolean over = false;
            for (int ply = 0; ply < plies && !over; ply++) {
                List<Move> moves = moves(state);
                if (moves.isEmpty()) {
                    over = true;
                    break;
                }
                state = play(game, state, moves.get(random.nextInt(moves.size())));
                over = finished(state);
            }
            if (over || moves(state).isEmpty()) {
                continue;
            }
            String record = PositionSerializer.getPositionRecord(state.getBoard());
            return "seed " + tried + " plies " + plies + "\u0000"
                    + withStart(rulesString, record, state.getCurrentSide().isAttackingSide());
        }
    }

    static void divide(String rulesString, int depth) {
        Game game = newGame(rulesString);
        GameState state = game.getCurrentState();
        long total = 0;
        for (Move m : moves(state)) {
            GameState next = play(game, state, m);
            long below = 1;
            if (depth > 1 && !finished(next)) {
                long[][] counts = new long[depth][4];
                count(game, next, 0, depth - 1, counts);
                below = counts[depth - 1][0];
            } else if (depth > 1) {
                below = 0;
            }
            total += below;
            out.println(m.from() + "-" + m.to() + " " + below + " victory " + next.checkVictory());
        }
        out.println("total " + total);
    }

    static void header() {
        out.println("# Perft fixtures for OpenTafl rules strings of boards larger than 11x11, from OpenTafl's");
        out.println("# own move generator and game-end checks (OpenTafl v0.4.8.0b), fed each rules string exactly");
        out.println("# as an external engine receives it: made by tools/opentafl-perft (see its README).");
        out.println("# The format is tests/data/opentafl-variants.txt's: id, rules (a whole rules string; its start:");
        out.println("# is the position, its atkf: says who moves), side, `perft DEPTH COUNT` lines and");
        out.println("# `ends DEPTH ATTACKER_WINS DEFENDER_WINS DRAWS` lines (how many of that depth's leaves are");
        out.println("# finished games; a finished game is a leaf and is not expanded; no position repeats here).");
        out.println("# Midgames (-sample-N) are seeded random playouts written back into the rules string.");
    }

    public static void main(String[] args) {
        out = System.out;
        // OpenTafl logs to standard output; the fixtures go to the real one.
        System.setOut(new PrintStream(PrintStream.nullOutputStream()));
        Coord.initialize();
        if (args.length > 0 && args[0].equals("divide")) {
            divide(args[1], Integer.parseInt(args[2]));
            out.flush();
            return;
        }
        if (args.length > 0 && args[0].equals("header")) {
            header();
            out.flush();
            return;
        }
        int startDepth = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int sampleDepth = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int samples = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        List<String> only = List.of(args).subList(Math.min(args.length, 3), args.length);
        if (only.isEmpty()) {
            header();
        }
        for (String[] game : GAMES) {
            String id = game[0];
            if (!only.isEmpty() && !only.contains(id)) {
                continue;
            }
            block(id + "-start", game[1], startDepth);
            for (int sample = 0; sample < samples; sample++) {
                String[] found = midgame(game[1], 1000L * (sample + 1)).split("\u0000");
                out.println();
                out.print("# a random playout: " + found[0]);
                block(id + "-sample-" + sample, found[1], sampleDepth);
            }
        }
        out.flush();
    }
}
