"""1001 online: server, rules engine and persistence."""
