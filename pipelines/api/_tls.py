"""One TLS context per process for every API client.

httpx builds a context (loading the CA bundle, ~20 ms) for each client; a sync makes a client
per asset and property, so the context is built once and shared (an SSLContext is safe to
share between clients and threads).
"""

from __future__ import annotations

import ssl
from functools import cache

import httpx


@cache
def tls_context() -> ssl.SSLContext:
    """httpx's default verification (certifi's CA bundle, SSL_CERT_FILE honoured)."""
    return httpx.create_ssl_context()
