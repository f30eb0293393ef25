"""Two-hand 1001's own strategies: the heuristics of a game with a stock (``policy``), its playouts
(``sim``), the exact endgame solver once the stock is empty (``solver``, R4 phase 2: perfect
information), the whole-deal search (``deep``) and the ``expert`` level built on them."""
