"""What a server process runs on, below every feature: its threads and worker
processes, its metrics and logs, and the other processes (cluster, bus)."""
