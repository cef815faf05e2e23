"""The memory hierarchy: short-term pages and chains, mid-term segments, long-term memory."""
