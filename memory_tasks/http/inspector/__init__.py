"""The memory inspector: server-rendered pages for operators at /inspector (admin login, CSRF on writes)."""
