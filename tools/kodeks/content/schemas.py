"""JSON Schema validation of content, with errors an author can act on.

The schemas in schema/ are the source of truth (editors use them while the author types). Here they
are loaded once into a `referencing` registry; each jsonschema error is turned into one located
problem with a plain message and a fix.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from ..problems import Problems, did_you_mean
from .yamlfile import YamlFile

BASE = "https://kodeks.invalid/schema/"
KINDS = ("rule", "skill", "trait", "weapon", "unit", "faction", "equipment", "terrain", "term",
         "state", "marker", "action", "scenario")


def schema_dir() -> Path:
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "schema"
        if (candidate / "defs.schema.json").is_file():
            return candidate
    raise FileNotFoundError("schema/ folder not found next to the kodeks package")


@lru_cache(maxsize=None)
def registry() -> Registry:
    resources = []
    for path in sorted(schema_dir().glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((BASE + path.name, Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    """`name` is 'game' or a kind; a kind's validator checks one entry."""
    ref = BASE + ("game.schema.json" if name == "game" else f"{name}.schema.json#/$defs/entry")
    return Draft202012Validator({"$ref": ref}, registry=registry())


def _inline(schema, base: str, depth: int = 0):
    """The schema with every $ref replaced by its target and `allOf` merged, for the fast validator."""
    if depth > 40:
        raise RecursionError("schema nesting too deep")
    if isinstance(schema, list):
        return [_inline(s, base, depth + 1) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        ref = schema["$ref"]
        target_base = base if ref.startswith("#") else BASE + ref.split("#")[0]
        target = registry().resolver(target_base).lookup(ref if ref.startswith("#") else BASE + ref).contents
        merged = {k: v for k, v in schema.items() if k != "$ref"}
        return _inline({**target, **merged}, target_base, depth + 1)
    out = {}
    for k, v in schema.items():
        if k in ("$schema", "$defs", "description", "title"):
            continue  # annotations (a property called "title" lives inside "properties", handled below)
        if k in ("properties", "patternProperties") and isinstance(v, dict):
            out[k] = {name: _inline(sub, base, depth + 1) for name, sub in v.items()}
        else:
            out[k] = _inline(v, base, depth + 1)
    if "allOf" in out:
        parts = out.pop("allOf")
        props, required = dict(out.get("properties", {})), list(out.get("required", []))
        for part in parts:
            props = {**part.get("properties", {}), **props}
            required += [r for r in part.get("required", []) if r not in required]
        out["properties"], out["required"] = props, required
        out.setdefault("type", "object")
    if out.pop("unevaluatedProperties", None) is False:
        out["additionalProperties"] = False
    return out


@lru_cache(maxsize=None)
def fast_validator(name: str):
    """A compiled (fastjsonschema) check of the same schema: only says valid or not. Most content is valid,
    so jsonschema, slow but precise in its errors, runs only on what this rejects."""
    if name == "game":
        schema = _inline(registry().resolver(BASE).lookup(BASE + "game.schema.json").contents, BASE + "game.schema.json")
    else:
        root = BASE + f"{name}.schema.json"
        schema = _inline(registry().resolver(root).lookup(root + "#/$defs/entry").contents, root)
    namespace: dict = {}
    exec(_validator_code(name, schema), namespace)  # noqa: S102 - code generated from our own schemas
    return namespace["validate"]


def _validator_code(name: str, schema: dict):
    """The compiled validator, from a cache keyed by the schema, fastjsonschema and Python: generating the
    code of the 14 schemas took half of `kodeks validate`'s time on 1,000 entries."""
    import hashlib
    import marshal
    import os
    import sys

    import fastjsonschema
    key = hashlib.sha256(json.dumps([schema, fastjsonschema.VERSION, _RAISE.pattern, sys.version],
                                    sort_keys=True).encode("utf-8")).hexdigest()[:32]
    cached = cache_dir() / "validators" / f"{name}-{key}.marshal"
    try:
        return marshal.loads(cached.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        pass  # not cached yet, or unreadable: generate it
    code = fastjsonschema.compile_to_code(schema)
    # Every failed oneOf alternative raises, and fastjsonschema formats a detailed message (with
    # `.format(**locals())`) for each: half the validation time on valid content. Only valid or not is
    # wanted here (jsonschema describes the errors), so raise a bare exception instead.
    code = _RAISE.sub(r'\1raise JsonSchemaValueException("invalid")', code)
    compiled = compile(code, f"<schema {name}>", "exec")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(compiled))
        os.replace(tmp, cached)  # whole or not at all, also with two builds at once
    except OSError:
        pass  # a read-only home: generate it each time
    return compiled


def cache_dir() -> Path:
    """kodeks' cache: $KODEKS_CACHE, else $XDG_CACHE_HOME/kodeks or ~/.cache/kodeks."""
    import os
    if os.environ.get("KODEKS_CACHE"):
        return Path(os.environ["KODEKS_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kodeks"


_RAISE = re.compile(r"^(\s*)raise JsonSchemaValueException\(.*\)\s*$", re.M)


def _resolve(schema: dict) -> dict:
    """Follow a `$ref` for describing errors (local refs are tried in the shared and game schemas)."""
    if "$ref" not in schema or len(schema) > 2:
        return schema
    ref = schema["$ref"]
    bases = [BASE + "defs.schema.json", BASE + "game.schema.json"] if ref.startswith("#") else [BASE]
    for base in bases:
        try:
            return registry().resolver(base).lookup(ref).contents
        except Exception:  # noqa: BLE001 - try the next base
            continue
    return schema


def _allowed_keys(schema: dict) -> set[str]:
    """Property names a (possibly composed) object schema accepts."""
    keys = set(schema.get("properties", {}))
    for sub in schema.get("allOf", []):
        sub = _resolve(sub)
        keys |= set(sub.get("properties", {}))
    return keys


_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number", "object": "a mapping (key: value)",
               "array": "a list", "boolean": "true or false", "null": "nothing"}


def _what(value) -> str:
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        short = value if len(value) <= 40 else value[:37] + "..."
        return f"text '{short}'"
    return f"'{value}'"


def _path_label(path) -> str:
    parts = []
    for p in path:
        parts.append(f"[{p}]" if isinstance(p, int) else ("." if parts else "") + str(p))
    return "".join(parts) or "the entry"


def _expectation(schema: dict) -> str:
    """Describe in words what a schema (possibly a oneOf) expects."""
    schema = _resolve(schema)
    desc = schema.get("description", "")
    if "oneOf" in schema or "anyOf" in schema:
        alts = [_resolve(s) for s in schema.get("oneOf", schema.get("anyOf", []))]
        words = []
        for alt in alts:
            if "const" in alt:
                words.append(repr(alt["const"]))
            elif alt.get("type") == "object" and "pl" in alt.get("properties", {}):
                words.append("bilingual text {pl: ..., en: ...}")
            elif alt.get("type") == "object" and "gap" in alt.get("properties", {}):
                words.append("a gap {gap: true}")
            elif alt.get("type") == "object" and "ref" in alt.get("properties", {}):
                words.append("{ref: kind/id, level: ...}")
            elif alt.get("type") == "object" and "book" in alt.get("properties", {}):
                words.append("a citation {book: ..., section: ...}")
            elif alt.get("type") == "array":
                words.append("a list")
            elif alt.get("type") == "string" and alt.get("pattern", "").startswith("^([a-z0-9]"):
                words.append("a reference kind/id")
            elif isinstance(alt.get("type"), str):
                words.append(_TYPE_WORDS.get(alt["type"], alt["type"]))
        return " or ".join(dict.fromkeys(words)) or desc
    t = schema.get("type")
    if isinstance(t, list):
        return " or ".join(_TYPE_WORDS.get(x, x) for x in t)
    if t == "object" and "pl" in schema.get("properties", {}):
        return "bilingual text {pl: ..., en: ...}"
    return _TYPE_WORDS.get(t, str(t))


def _json_type(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "null"


def _shape_fits(alt: dict, value) -> bool:
    alt = _resolve(alt)
    t = alt.get("type")
    if t is None:
        return not isinstance(value, (str, int, float, bool)) or "const" in alt and alt["const"] == value
    types = t if isinstance(t, list) else [t]
    vt = _json_type(value)
    return vt in types or (vt == "integer" and "number" in types)


def _best(error: ValidationError) -> ValidationError:
    """For a oneOf/anyOf failure, the error of the alternative whose shape fits the value, if exactly one does."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        alts = error.validator_value
        fitting = [i for i, alt in enumerate(alts) if _shape_fits(alt, error.instance)]
        if len(fitting) == 1:
            errs = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == fitting[0]]
            if errs:
                deepest = max(errs, key=lambda e: len(e.absolute_path))
                return _best(deepest)
    return error


def describe(error: ValidationError) -> tuple[tuple, bool, str, str] | None:
    """(path, point at the key?, message, fix) for one schema error."""
    error = _best(error)
    path = tuple(error.absolute_path)
    where = _path_label(path)
    v = error.validator
    inst = error.instance
    schema = error.schema
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        if missing == "pl":
            return path, False, f"{where}: missing Polish text ('pl')", "add `pl:` with the Polish text"
        hint = {"source": "add `source: {book: <book id>, section: <section heading>}`",
                "name": "add `name: {pl: ..., en: ...}`", "id": "add `id: <lowercase-slug>`",
                "summary": "add a one-line `summary: {pl: ..., en: ...}`",
                "profiles": "add `profiles:` with at least one `- values: {...}`"}.get(missing, f"add `{missing}:`")
        return path, False, f"{where}: missing required field '{missing}'", hint
    if v in ("additionalProperties", "unevaluatedProperties"):
        allowed = _allowed_keys(schema)
        unknown = [k for k in inst if k not in allowed] if isinstance(inst, dict) else []
        if not unknown:
            return None  # only a side effect of another error in the same mapping (annotations dropped)
        key = unknown[0]
        fix = "allowed here: " + ", ".join(sorted(allowed))
        if inst.get(key) is None and not did_you_mean(key, allowed):
            fix = "a comma inside { } starts a new field: put quotes around a value that contains a comma; " + fix
        return (path + (key,), True, f"unknown field '{key}'{did_you_mean(key, allowed)}", fix)
    if v == "type":
        return path, False, f"{where}: expected {_expectation(schema)}, got {_what(inst)}", "change the value's type"
    if v in ("oneOf", "anyOf"):
        return path, False, f"{where}: expected {_expectation(schema)}, got {_what(inst)}", "see the schema's description of this field"
    if v == "pattern":
        if "a-z0-9]+(-[a-z0-9]+)*$" in error.validator_value and "/" not in error.validator_value:
            return (path, False, f"{where}: '{inst}' is not a valid id",
                    "use lowercase ASCII letters, digits and single hyphens, e.g. 'heavy-rifle'")
        if "/" in error.validator_value:
            return (path, False, f"{where}: '{inst}' is not a valid reference",
                    "write kind/id (e.g. skill/camouflage) or game/kind/id")
        return path, False, f"{where}: '{inst}' does not have the expected form", f"match {error.validator_value}"
    if v == "minLength":
        return path, False, f"{where}: empty text", "write the text or remove the field"
    if v == "minItems":
        return path, False, f"{where}: the list is empty", "add at least one item or remove the field"
    if v in ("enum", "const"):
        options = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        return (path, False, f"{where}: '{inst}' is not allowed{did_you_mean(str(inst), [str(o) for o in options])}",
                "use one of: " + ", ".join(str(o) for o in options))
    if v == "propertyNames":
        return (path, True, f"{where}: key '{inst}' is not a valid field key",
                "use lowercase ASCII letters, digits and underscores, as declared in game.yaml")
    if v in ("minimum", "maximum", "maxLength"):
        return path, False, f"{where}: {error.message}", "change the value"
    return path, False, f"{where}: {error.message}", "see the schema"


def _each_unknown(described, error: ValidationError) -> list:
    """`describe`'s problem, and one more for each further unknown field of the same mapping: all in one run."""
    if described is None:
        return []
    out = [described]
    error = _best(error)
    if error.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(error.instance, dict):
        allowed = _allowed_keys(error.schema)
        path, _, _, fix = described
        for key in [k for k in error.instance if k not in allowed][1:]:
            out.append((path[:-1] + (key,), True, f"unknown field '{key}'{did_you_mean(key, allowed)}", fix))
    return out


def check(yf: YamlFile, name: str, instance, base: tuple, problems: Problems, bad: list | None = None) -> bool:
    """Validate `instance` (found at `base` in the file) against schema `name`; report; True if valid.
    `bad` receives the path (inside `instance`) of each value found wrong."""
    try:
        fast_validator(name)(instance)
        return True
    except Exception:  # noqa: BLE001 - any rejection (or a schema the compiler cannot take) goes to jsonschema
        pass
    errors = list(validator(name).iter_errors(instance))
    seen = set()
    for described in (d for error in errors for d in _each_unknown(describe(error), error)):
        path, at_key, message, fix = described
        if bad is not None:
            bad.append(path)
        full = base + path
        if yf.was_refused(full):
            continue  # the reader refused this value and said so; None in its place is no second mistake
        pos = yf.key_pos(full) if at_key else yf.pos(full)
        if (pos, message) in seen:
            continue
        seen.add((pos, message))
        problems.error(yf.path, pos, message, fix)
    return not errors
