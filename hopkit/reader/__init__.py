"""Readers: from a question and passages to an answer span with a confidence."""
