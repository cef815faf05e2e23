"""The vocabulary every part of the memory shares: records (messages, hits), tokens and
their counts, validation of what callers pass, metadata filters, threads and the optional
chat model's structured output. Imports nothing else of the package.
"""
