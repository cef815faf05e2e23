"""The write gate: sensitivity (PII and secrets), extraction of memory atoms, dedup."""
