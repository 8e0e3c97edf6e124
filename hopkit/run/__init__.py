"""A run carried out from its spec, one module a verb: ``eval``, ``optimize``, ``ablate`` and ``reproduce`` each turn
their flags into specs and call the function here that their Python peer (``hopkit.run_eval``, ``run_optimize``,
``run_ablation``, ``run_reproduce``) calls too. ``parts`` opens what every one of them builds its programs over.
Nothing here reads the command line (docs/python-api.md, "A run from its spec").
"""
