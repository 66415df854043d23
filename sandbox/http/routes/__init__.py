"""Thin HTTP routes of API v1: parse, call a service, shape the answer."""
