"""A table's runner: the I/O around the pure authority (``web.game``), its
seats' connections, its frames, its bots, and the replica that follows a leader."""
