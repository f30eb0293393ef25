"""Two-hand 1001's own strategies: the heuristics of a game with a stock (``policy``), its playouts
(``sim``), exact values on the compiled search core (``exact``: ``backend.search``, R4 phase 2 and
every sampled world of phase 1 solved to the end of the deal) and the ``expert`` level built on them."""
