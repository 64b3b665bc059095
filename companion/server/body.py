"""The JSON object of a POST, read once through the bounded parser.

Why one place: every route that reads a body must refuse a 30k-deep array, a lone surrogate or
a number beyond 2^53 the same way (a 400 saying so), never with a RecursionError or an
encoding error from the library three calls later (a 500).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import abort, request

from companion.safeio import UnsafeInputError, parse_json


def json_object() -> Mapping[str, Any]:
    """The request's JSON object; 415 when it is not JSON, 400 when it is not a clean object.
    JSON only: a form post from another web site (which a browser sends without asking) must
    not be able to press the referee's buttons."""
    if not request.is_json:
        abort(415, description="send a JSON object (Content-Type: application/json)")
    raw = request.get_data(cache=True)
    if not raw.strip():
        abort(400, description="the request body is not valid JSON (it is empty)")
    try:
        body = parse_json(raw)
    except UnsafeInputError as exc:
        message = str(exc)
        if "not valid JSON" in message:
            message = f"the request body is not valid JSON ({message.split('(', 1)[-1]}"
        abort(400, description=message)
    if not isinstance(body, dict):
        abort(400, description="the request body must be a JSON object")
    return body


def json_object_or_none() -> Mapping[str, Any] | None:
    """The request's JSON object, or None when there is none or it is not clean (for reading
    an optional field such as the PIN before the route itself says what is wrong)."""
    if not request.is_json:
        return None
    try:
        body = parse_json(request.get_data(cache=True))
    except UnsafeInputError:
        return None
    return body if isinstance(body, dict) else None
