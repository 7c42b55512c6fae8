"""The lab: what measures the engine, never what plays it.

The duplicate arenas (:mod:`coinche_lab.arena` for bot levels, :mod:`coinche_lab.bidding_arena` for
bidders), the frozen baseline bidder ``auction-v1`` (:mod:`coinche_lab.auction_v1`) and the figures
the benchmarks in ``bench/`` share (:mod:`coinche_lab.stats`).  It imports the engine (``coinche``);
the engine never imports it, and the site's wheel never holds it.  Installed for development by
``make venv``; it adds the ``coinche arena`` and ``coinche bidding`` commands (:mod:`coinche_lab.cli`).
"""
