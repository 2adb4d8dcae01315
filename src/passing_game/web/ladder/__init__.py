"""The public ladder of agents (issue 28, item 5; P63): /ladder, from the store."""
