"""Domain services of the sandbox: the rules of API v1, independent of HTTP."""
