"""ColBERTv2 through colbert-ai: checkpoints, training, PLAID indexes, search."""
