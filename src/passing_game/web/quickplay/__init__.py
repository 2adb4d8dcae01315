"""Quick play and public tables: the process's waiting people (``service``)
and the queue in the store (``matching``); P30."""
