"""A plain pure-Python move generator for the rules of docs/rules.md (Tablut, Tawlbwrdd), written
for the benchmark as a tafl AI author would write one: a flat list for the board, moves as
(from, to) index pairs, play and undo on one board, repetition counted in a dict.

bench.py checks it against tafl_engine (perft fixtures, and every position of random games)
before it times anything, so the two do the same work.
"""

EMPTY, ATTACKER, DEFENDER, KING = 0, 1, 2, 3
LETTERS = {"t": ATTACKER, "T": DEFENDER, "K": KING}


class PureTafl:
    """A position with history, under docs/rules.md: rook moves, nobody stops on the castle,
    custodial captures with the empty castle hostile (R9, R10), the king captured by 4 on the
    castle, 3 next to it, 2 elsewhere (R13), the king escaping to any edge (R14), repetition
    and no-move draws (R16, R17)."""

    def __init__(self, record, attackers_to_move=True):
        rows = record.strip("/").split("/")
        self.size = n = len(rows)
        self.board = []
        for row in rows:  # rank 1 first
            for c in row_cells(row):
                self.board.append(c)
        self.castle = (n // 2) * n + n // 2
        self.attackers_to_move = attackers_to_move
        self.winner = None
        self.history = []
        self.seen = {}
        self._count_position(1)
        # Neighbour lists per square and direction, made once.
        self.steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]

    def _key(self):
        return (tuple(self.board), self.attackers_to_move)

    def _count_position(self, delta):
        key = self._key()
        self.seen[key] = self.seen.get(key, 0) + delta

    def legal_moves(self):
        if self.winner is not None:
            return []
        n, board, castle = self.size, self.board, self.castle
        mine = (ATTACKER,) if self.attackers_to_move else (DEFENDER, KING)
        moves = []
        for square in range(n * n):
            if board[square] not in mine:
                continue
            x, y = square % n, square // n
            for dx, dy in self.steps:
                tx, ty = x + dx, y + dy
                while 0 <= tx < n and 0 <= ty < n:
                    target = ty * n + tx
                    if board[target] != EMPTY:
                        break
                    if target != castle:  # R6: pass over the empty castle, never stop on it
                        moves.append((square, target))
                    tx += dx
                    ty += dy
        return moves

    def play(self, move):
        """Plays a legal move; returns the captured squares."""
        n, board, castle = self.size, self.board, self.castle
        start, target = move
        piece = board[start]
        board[target] = piece
        board[start] = EMPTY
        attackers = self.attackers_to_move
        enemy_soldier = DEFENDER if attackers else ATTACKER
        friends = (ATTACKER,) if attackers else (DEFENDER, KING)
        captured = []
        x, y = target % n, target // n
        for dx, dy in self.steps:
            nx, ny, fx, fy = x + dx, y + dy, x + 2 * dx, y + 2 * dy
            if not (0 <= fx < n and 0 <= fy < n):
                continue
            neighbour, far = ny * n + nx, fy * n + fx
            if board[neighbour] == enemy_soldier and (
                board[far] in friends or (far == castle and board[far] == EMPTY)
            ):
                board[neighbour] = EMPTY
                captured.append(neighbour)
        previous_winner = self.winner
        king_taken = None
        if attackers:
            king = self._king_next_to(target)
            if king is not None and self._king_captured(king, target):
                board[king] = EMPTY
                king_taken = king
                self.winner = "attackers"
        elif piece == KING and (x in (0, n - 1) or y in (0, n - 1)):
            self.winner = "defenders"
        self.history.append((start, target, piece, captured, king_taken, previous_winner))
        self.attackers_to_move = not attackers
        self._count_position(1)
        return captured if king_taken is None else captured + [king_taken]

    def _king_next_to(self, square):
        n = self.size
        x, y = square % n, square // n
        for dx, dy in self.steps:
            kx, ky = x + dx, y + dy
            if 0 <= kx < n and 0 <= ky < n and self.board[ky * n + kx] == KING:
                return ky * n + kx
        return None

    def _king_captured(self, king, target):
        n, board, castle = self.size, self.board, self.castle
        kx, ky = king % n, king // n
        around = [(ky + dy) * n + kx + dx for dx, dy in self.steps]
        if king == castle:
            return all(board[s] == ATTACKER for s in around)
        if castle in around:
            return all(board[s] == ATTACKER for s in around if s != castle)
        opposite = 2 * king - target  # the square beyond the king, on the mover's line
        return board[opposite] == ATTACKER

    def undo(self):
        self._count_position(-1)
        start, target, piece, captured, king_taken, previous_winner = self.history.pop()
        self.attackers_to_move = not self.attackers_to_move
        enemy_soldier = DEFENDER if self.attackers_to_move else ATTACKER
        for square in captured:
            self.board[square] = enemy_soldier
        if king_taken is not None:
            self.board[king_taken] = KING
        self.board[start] = piece
        self.board[target] = EMPTY
        self.winner = previous_winner

    def over(self):
        """Whether the game has ended on the board or by repetition (R16); a side without a
        move (R17) shows as an empty legal_moves()."""
        return self.winner is not None or self.seen.get(self._key(), 0) >= 2

    def perft(self, depth):
        """docs/rules.md P1, counting the last ply without playing it."""
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        if depth == 0:
            return 1
        total = 0
        for m in moves:
            self.play(m)
            total += self.perft(depth - 1)
            self.undo()
        return total


def row_cells(row):
    """The squares of one record row: digits are runs of empty squares."""
    cells, run = [], ""
    for c in row:
        if c.isdigit():
            run += c
            continue
        if run:
            cells.extend([EMPTY] * int(run))
            run = ""
        cells.append(LETTERS[c])
    if run:
        cells.extend([EMPTY] * int(run))
    return cells


def square_text(square, size):
    """A square's index -> its name, `e2`."""
    return f"{chr(97 + square % size)}{square // size + 1}"


def move_text(move, size):
    """(from, to) -> OpenTafl simple notation, `e2-h2`."""
    return "-".join(square_text(s, size) for s in move)
