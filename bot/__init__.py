"""The game service and its surfaces: terminal, Discord, email, and the referee CLI."""
