#!/usr/bin/python3
"""gen.py - generate Backplane's message codecs from proto/*.yaml.

    /usr/bin/python3 proto/gen.py --out libbus --fuzz-corpus test/fuzz/corpus

reads every proto/<domain>.yaml (sorted), validates it, and writes
    <out>/proto_<domain>.h, <out>/proto_<domain>.c   structs and codecs
                                                 (domain test: proto_test_codec.[ch])
    <out>/proto.h, <out>/proto.c                     registry and shared runtime
    <fuzz-corpus>/fuzz_proto/<name>.bin              one valid seed per registry entry
Output is deterministic (no timestamps) and a file is only rewritten when its
content changes. A schema error prints "proto/x.yaml: message 'a.b' field 'c':
reason" and nothing is written. Development tool only (`make proto`); the
generated code is committed. Needs PyYAML (Debian: python3-yaml).

Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
"""

import argparse
import math
import os
import re
import struct
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
COLS = 90
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1
UINT32_MAX = 2**32 - 1

#   The fuzz target picks a registry entry with one input byte.
MAX_ENTRIES = 256

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
LOWER = re.compile(r"^[a-z][a-z0-9_]*$")
TOPIC = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")
C_KEYWORDS = set(
    """auto break case char const continue default do double else enum extern
    float for goto if inline int long register restrict return short signed
    sizeof static struct switch typedef union unsigned void volatile while
    _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
    _Static_assert _Thread_local bool true false NULL""".split()
)

#   Attributes each field type accepts, besides name, type, required, secret, doc.
TYPE_ATTRS = {
    "string": {"max", "default"},
    "bytes": {"max"},
    "uuid": set(),
    "int": {"min", "max", "default"},
    "uint": {"max", "default"},
    "bool": {"default"},
    "double": {"default"},
    "time": {"default"},
    "strings": {"max"},
    "map": {"max"},
    "list": {"max", "of"},
}
COMMON_ATTRS = {"name", "type", "required", "secret", "doc"}
STRUCT_ATTRS = set()  # a nested type: only the common attributes

TOP_KEYS = {"domain", "doc", "types", "events", "methods"}
TYPE_KEYS = {"name", "doc", "fields"}
EVENT_KEYS = {"name", "delivery", "durable", "doc", "fields"}
METHOD_KEYS = {"name", "idempotent", "doc", "request", "reply"}


class SchemaError(Exception):
    pass


# ---------------------------------------------------------------------------
# YAML loading: PyYAML keeps the last of two equal keys; we refuse them.


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader, node, deep=False):
    loader.flatten_mapping(node)
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            duplicate = key in seen
            seen.add(key)
        except TypeError:
            duplicate = False
        if duplicate:
            raise yaml.constructor.ConstructorError(
                None, None, "duplicate key %r" % (key,), key_node.start_mark
            )
    return loader.construct_mapping(node, deep)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


# ---------------------------------------------------------------------------
# The model


class Field:
    def __init__(self, raw, where, domain):
        self.where = where
        if not isinstance(raw, dict):
            self.fail(None, "a field must be a mapping {name: ..., type: ...}")
        name = raw.get("name")
        if not isinstance(name, str) or not IDENT.match(name):
            self.fail(name, "name is not a C identifier")
        if name in C_KEYWORDS:
            self.fail(name, "name is a C keyword")
        if name.endswith("_"):
            self.fail(name, "names ending in '_' are reserved")
        self.name = name
        ftype = raw.get("type")
        if not isinstance(ftype, str):
            self.fail(name, "missing type")
        if ftype in TYPE_ATTRS:
            allowed = COMMON_ATTRS | TYPE_ATTRS[ftype]
            self.struct = None
        elif ftype in domain.types:
            allowed = COMMON_ATTRS | STRUCT_ATTRS
            self.struct = domain.types[ftype]
        else:
            self.fail(name, "unknown type '%s'" % ftype)
        self.type = ftype
        for key in raw:
            if key not in allowed:
                self.fail(name, "unknown attribute '%s' for type %s" % (key, ftype))
        self.required = self.flag(raw, "required")
        self.secret = self.flag(raw, "secret")
        self.doc = doc_line(raw.get("doc"), lambda reason: self.fail(name, reason))
        self.min = self.number(raw, "min", INT64_MIN, INT64_MAX)
        if ftype == "uint":
            self.max = self.number(raw, "max", 0, UINT64_MAX)
        elif ftype == "int":
            self.max = self.number(raw, "max", INT64_MIN, INT64_MAX)
        else:
            self.max = self.number(raw, "max", 0, UINT32_MAX)
        if self.min is not None and self.max is not None and self.min > self.max:
            self.fail(name, "min is greater than max")
        self.of = None
        if ftype == "list":
            of = raw.get("of")
            if not isinstance(of, str) or of not in domain.types:
                self.fail(name, "'of' must name a type defined above in 'types'")
            self.of = domain.types[of]
        self.default = None
        if "default" in raw:
            if self.required:
                self.fail(name, "a required field cannot have a default")
            self.default = self.check_default(raw["default"])

    def fail(self, name, reason):
        if name is None:
            raise SchemaError("%s: %s" % (self.where, reason))
        raise SchemaError("%s field '%s': %s" % (self.where, name, reason))

    def flag(self, raw, key):
        value = raw.get(key, False)
        if not isinstance(value, bool):
            self.fail(self.name, "'%s' must be true or false" % key)
        return value

    def number(self, raw, key, low, high):
        if key not in raw:
            return None
        value = raw[key]
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(self.name, "'%s' must be an integer" % key)
        if value < low or value > high:
            self.fail(self.name, "'%s' is out of range" % key)
        return value

    def check_default(self, value):
        t = self.type
        if t in ("int", "uint", "time"):
            if isinstance(value, bool) or not isinstance(value, int):
                self.fail(self.name, "default must be an integer")
            low = self.min if self.min is not None else (0 if t == "uint" else INT64_MIN)
            high = self.max if self.max is not None else (UINT64_MAX if t == "uint" else INT64_MAX)
            if value < low or value > high:
                self.fail(self.name, "default is outside min/max")
        elif t == "bool":
            if not isinstance(value, bool):
                self.fail(self.name, "default must be true or false")
        elif t == "double":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                self.fail(self.name, "default must be a number")
            value = float(value)
            if not math.isfinite(value):
                self.fail(self.name, "default must be finite")
        elif t == "string":
            if not isinstance(value, str):
                self.fail(self.name, "default must be a string")
            if "\0" in value:
                self.fail(self.name, "default contains a NUL byte")
            if self.max is not None and len(value.encode()) > self.max:
                self.fail(self.name, "default is longer than max")
        return value

    # Shapes -----------------------------------------------------------------

    @property
    def counted(self):
        """An array in C: pointer plus name_count."""
        return self.type in ("strings", "map", "list")

    @property
    def pointer(self):
        """NULL means absent."""
        return self.type in ("string", "bytes")

    def members(self):
        """Member names this field takes in its struct."""
        if self.type == "bytes":
            return [self.name, self.name + "_size"]
        if self.counted:
            return [self.name, self.name + "_count"]
        return [self.name]

    def size_max(self):
        return c_uint(self.max) if self.max is not None else "PROTO_UNLIMITED"

    def flags(self):
        return "PROTO_REQUIRED" if self.required else "0"

    def sometimes(self):
        """C condition under which the encoder writes the field, or None: always."""
        if self.required:
            return None
        if self.pointer:
            return "self->%s != NULL" % self.name
        if self.counted:
            return "self->%s_count > 0" % self.name
        return None

    def comment(self):
        notes = []
        t = self.type
        if self.required:
            notes.append("required")
        if t in ("string", "bytes") and self.max is not None:
            notes.append("at most %d bytes" % self.max)
        if self.counted and self.max is not None:
            notes.append("at most %d %s" % (self.max, "pairs" if t == "map" else "items"))
        if t == "int" and (self.min is not None or self.max is not None):
            notes.append(
                "%s..%s"
                % (
                    self.min if self.min is not None else "INT64_MIN",
                    self.max if self.max is not None else "INT64_MAX",
                )
            )
        if t == "uint" and self.max is not None:
            notes.append("at most %d" % self.max)
        if t == "time":
            notes.append("microseconds since the epoch")
        if t == "uuid":
            notes.append("16 bytes")
        if t == "map":
            notes.append("string to string, in wire order")
        if self.default is not None:
            notes.append("default %s" % yaml_scalar(self.default))
        if self.secret:
            notes.append("secret: printed as [redacted]")
        text = self.doc or ""
        if notes:
            text = (text + " (" + ", ".join(notes) + ")") if text else ", ".join(notes)
        return text[:1].upper() + text[1:] if text else ""


class Struct:
    """An event, a request, a reply or a nested type: one C struct."""

    def __init__(self, domain, kind, name, doc, raw_fields, where):
        self.domain = domain
        self.kind = kind
        self.name = name
        self.doc = doc
        self.where = where
        self.used_in_list = False
        if kind == "type":
            short = name
            self.label = "%s.%s" % (domain.name, name)
        else:
            short = name[len(domain.name) + 1 :].replace(".", "_")
            self.label = name
            if kind == "request":
                short += "_req"
                self.label = name + " request"
            elif kind == "reply":
                short += "_rep"
                self.label = name + " reply"
        self.short = short
        self.cname = "%s_%s" % (domain.name, short)
        self.ctype = "proto_%s_t" % self.cname
        if raw_fields is None:
            raw_fields = []
        if not isinstance(raw_fields, list):
            raise SchemaError("%s: fields must be a list" % where)
        self.fields = []
        members = set()
        for raw in raw_fields:
            field = Field(raw, where, domain)
            for member in field.members():
                if member in members:
                    field.fail(field.name, "duplicate name (C member '%s')" % member)
                members.add(member)
            if field.of is not None:
                field.of.used_in_list = True
            self.fields.append(field)

    def fn(self, verb):
        return "proto_%s_%s" % (self.cname, verb)

    def s(self, verb):
        return "s_%s_%s" % (self.short, verb)

    def needs_init(self):
        """True when init must do more than zero the struct."""
        for f in self.fields:
            if f.default is not None:
                return True
            if f.struct is not None and f.struct.needs_init():
                return True
        return False


class Method:
    def __init__(self, name, idempotent, doc, request, reply):
        self.name = name
        self.idempotent = idempotent
        self.doc = doc
        self.request = request
        self.reply = reply


class Domain:
    def __init__(self, path):
        self.file = os.path.basename(path)
        self.display = "proto/" + self.file
        try:
            with open(path, encoding="utf-8") as stream:
                raw = yaml.load(stream, Loader=_Loader)
        except (yaml.YAMLError, UnicodeDecodeError) as e:
            raise SchemaError("%s: %s" % (self.display, str(e).replace("\n", " ")))
        if not isinstance(raw, dict):
            raise SchemaError("%s: not a mapping" % self.display)
        for key in raw:
            if key not in TOP_KEYS:
                raise SchemaError("%s: unknown key '%s'" % (self.display, key))
        name = raw.get("domain")
        if not isinstance(name, str) or not LOWER.match(name):
            raise SchemaError("%s: 'domain' must be a lower-case C identifier" % self.display)
        if self.file != name + ".yaml":
            raise SchemaError("%s: domain '%s' must live in proto/%s.yaml" % (self.display, name, name))
        self.name = name
        #   The build takes libbus/*_test.c for unit tests: domain "test" gets
        #   proto_test_codec.[ch] rather than proto_test.[ch].
        self.stem = "proto_" + name
        if self.stem.endswith("_test"):
            self.stem += "_codec"
        self.doc = doc_line(raw.get("doc"), lambda r: self.fail("doc: " + r))
        self.types = {}
        self.structs = []
        self.events = []
        self.methods = []
        names = set()
        for raw_type in self.items(raw, "types"):
            self.keys(raw_type, TYPE_KEYS, "type")
            tname = raw_type.get("name")
            where = "%s: type '%s'" % (self.display, tname)
            if not isinstance(tname, str) or not LOWER.match(tname):
                raise SchemaError("%s: name must be a lower-case C identifier" % where)
            if tname in self.types:
                raise SchemaError("%s: duplicate type" % where)
            doc = doc_line(raw_type.get("doc"), lambda r: self.fail("%s: doc: %s" % (where, r)))
            if "fields" not in raw_type:
                raise SchemaError("%s: missing 'fields'" % where)
            struct_ = Struct(self, "type", tname, doc, raw_type["fields"], where)
            self.types[tname] = struct_
            self.structs.append(struct_)
        for raw_event in self.items(raw, "events"):
            self.keys(raw_event, EVENT_KEYS, "event")
            ename = self.message_name(raw_event, names)
            where = "%s: message '%s'" % (self.display, ename)
            delivery = raw_event.get("delivery", "broadcast")
            if delivery not in ("broadcast", "anycast"):
                raise SchemaError("%s: delivery must be broadcast or anycast" % where)
            durable = raw_event.get("durable", False)
            if not isinstance(durable, bool):
                raise SchemaError("%s: durable must be true or false" % where)
            doc = doc_line(raw_event.get("doc"), lambda r: self.fail("%s: doc: %s" % (where, r)))
            struct_ = Struct(self, "event", ename, doc, raw_event.get("fields"), where)
            struct_.broadcast = delivery == "broadcast"
            struct_.durable = durable
            self.events.append(struct_)
            self.structs.append(struct_)
        for raw_method in self.items(raw, "methods"):
            self.keys(raw_method, METHOD_KEYS, "method")
            mname = self.message_name(raw_method, names)
            where = "%s: message '%s'" % (self.display, mname)
            idempotent = raw_method.get("idempotent", False)
            if not isinstance(idempotent, bool):
                raise SchemaError("%s: idempotent must be true or false" % where)
            doc = doc_line(raw_method.get("doc"), lambda r: self.fail("%s: doc: %s" % (where, r)))
            parts = []
            for part in ("request", "reply"):
                if part not in raw_method:
                    raise SchemaError("%s: missing '%s' (write [] for none)" % (where, part))
                struct_ = Struct(self, part, mname, doc, raw_method[part], "%s %s" % (where, part))
                struct_.idempotent = idempotent
                parts.append(struct_)
                self.structs.append(struct_)
            self.methods.append(Method(mname, idempotent, doc, parts[0], parts[1]))

    def fail(self, reason):
        raise SchemaError("%s: %s" % (self.display, reason))

    def items(self, raw, key):
        value = raw.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail("'%s' must be a list" % key)
        return value

    def keys(self, raw, allowed, what):
        if not isinstance(raw, dict):
            self.fail("each %s must be a mapping" % what)
        name = raw.get("name")
        for key in raw:
            if key not in allowed:
                if what == "type":
                    self.fail("type '%s': unknown attribute '%s'" % (name, key))
                self.fail("message '%s': unknown attribute '%s'" % (name, key))

    def message_name(self, raw, names):
        name = raw.get("name")
        where = "%s: message '%s'" % (self.display, name)
        if not isinstance(name, str) or not TOPIC.match(name):
            raise SchemaError("%s: name must look like '%s.event_name'" % (where, self.name))
        if not name.startswith(self.name + "."):
            raise SchemaError("%s: name must start with '%s.'" % (where, self.name))
        if name in names:
            raise SchemaError("%s: duplicate name" % where)
        names.add(name)
        return name


def doc_line(value, fail):
    if value is None:
        return None
    if not isinstance(value, str):
        fail("doc must be a string")
    value = value.strip()
    if "\n" in value or "*/" in value or "\\" in value:
        fail("doc must be one line without '*/' or backslashes")
    return value


def yaml_scalar(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"%s"' % value
    return repr(value)


def load(directory):
    paths = sorted(
        os.path.join(directory, name)
        for name in os.listdir(directory)
        if name.endswith(".yaml")
    )
    domains = [Domain(path) for path in paths]
    if not domains:
        raise SchemaError("proto: no *.yaml schemas in %s" % directory)
    # C names must be unique across all domains (proto_a_b_t from type or topic).
    seen = {}
    for domain in domains:
        for struct_ in domain.structs:
            if struct_.ctype in seen:
                raise SchemaError(
                    "%s: C type %s clashes with %s" % (struct_.where, struct_.ctype, seen[struct_.ctype])
                )
            seen[struct_.ctype] = struct_.where
    # Limit constants must be unique too (struct a_b field c against a field b_c).
    macros = {}
    for domain in domains:
        for struct_ in domain.structs:
            for field in struct_.fields:
                if has_limit(field):
                    macro = limit_macro(struct_, field)
                    if macro in macros:
                        field.fail(field.name, "constant %s clashes with %s" % (macro, macros[macro]))
                    macros[macro] = struct_.where
    entries = registry(domains)
    if len(entries) > MAX_ENTRIES:
        raise SchemaError(
            "proto: %d registry entries; test/fuzz/fuzz_proto.c selects one with a byte"
            % len(entries)
        )
    return domains, entries


class Entry:
    def __init__(self, struct_, kind, seed):
        self.struct = struct_
        self.kind = kind
        self.seed = seed


def registry(domains):
    entries = []
    for domain in domains:
        for event in domain.events:
            entries.append(Entry(event, "PROTO_EVENT", event.name))
        for method in domain.methods:
            entries.append(Entry(method.request, "PROTO_REQUEST", method.name + ".request"))
            entries.append(Entry(method.reply, "PROTO_REPLY", method.name + ".reply"))
    return entries


# ---------------------------------------------------------------------------
# C text helpers: the output must be what clang-format (.clang-format) writes.


def c_uint(value):
    return "UINT64_C(%d)" % value if value > 2**31 - 1 else "%d" % value


def c_int(value):
    if value == INT64_MIN:
        return "INT64_MIN"
    if value == INT64_MAX:
        return "INT64_MAX"
    if value > 2**31 - 1 or value < -(2**31):
        return "INT64_C(%d)" % value
    return "%d" % value


def c_string(value):
    out = []
    for byte in value.encode():
        ch = chr(byte)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F and ch != "?":
            out.append(ch)
        else:
            out.append("\\%03o" % byte)
    return '"' + "".join(out) + '"'


def c_double(value):
    text = repr(float(value))
    return text if ("." in text or "e" in text) else text + ".0"


def wrap_text(text, width):
    words = text.split()
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word) if line else word
    if line:
        lines.append(line)
    return lines


class Out:
    def __init__(self):
        self.lines = []

    def add(self, *lines):
        for line in lines:
            if isinstance(line, (list, tuple)):
                self.lines.extend(line)
            else:
                self.lines.append(line)

    def blank(self):
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def comment(self, text, indent=""):
        prefix = indent + "//  "
        for line in wrap_text(text, COLS - len(prefix)):
            self.lines.append(prefix + line)

    def rule(self, title):
        self.blank()
        self.add("//  " + "-" * 75)
        self.comment(title)
        self.add("")

    def text(self):
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n"


def call(indent, head, args, tail=");"):
    """A call, its arguments packed after the parenthesis as clang-format does."""
    one = indent + head + ", ".join(args) + tail
    if len(one) <= COLS:
        return [one]
    if " = " in head:
        #   clang-format would rather break after the = than inside the call
        target, value = head.split(" = ", 1)
        rest = indent + "    " + value + ", ".join(args) + tail
        if len(rest) <= COLS:
            return [indent + target + " =", rest]
    lines = []
    line = indent + head
    align = " " * len(line)
    for i, arg in enumerate(args):
        piece = arg + ("," if i < len(args) - 1 else tail)
        if i == 0:
            line += piece
        elif len(line) + 1 + len(piece) <= COLS:
            line += " " + piece
        else:
            lines.append(line)
            line = align + piece
    lines.append(line)
    return lines


def signature(ret, name, params, definition):
    """A prototype (declaration) or the head of a definition, clang-format style:
    definitions break after the return type; parameters that do not fit go one
    per line, aligned after the parenthesis."""
    params = params or ["void"]
    if definition:
        head = [ret.rstrip()]
        start = name + "("
    else:
        head = []
        start = ret + ("" if ret.endswith("*") else " ") + name + "("
    tail = ")" if definition else ");"
    one = start + ", ".join(params) + tail
    if len(one) <= COLS:
        return head + [one]
    align = " " * len(start)
    lines = [start + params[0] + ("," if len(params) > 1 else tail)]
    for i, param in enumerate(params[1:], 1):
        lines.append(align + param + ("," if i < len(params) - 1 else tail))
    if not definition and (len(lines) > 2 or len(lines[0]) > COLS):
        #   clang-format prefers one break after the return type to two
        #   breaks between parameters, when the rest then fits
        rest = name + "(" + ", ".join(params) + tail
        if len(rest) <= COLS:
            return [ret.rstrip(), rest]
    return head + lines


def banner(source, title, paragraphs):
    """The generated marker, then the house header block."""
    lines = ["//  GENERATED FROM %s BY proto/gen.py - DO NOT EDIT" % source]
    lines.append("/*  " + "=" * 73)
    for i, paragraph in enumerate([title] + paragraphs):
        if i:
            lines.append("")
        lines.extend("    " + line for line in wrap_text(paragraph, 74))
    lines.append("")
    lines.append("    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.")
    lines.append("    " + "=" * 73)
    lines.append("*/")
    return lines


# ---------------------------------------------------------------------------
# proto_<domain>.h


def gen_domain_h(d):
    o = Out()
    o.add(
        banner(
            d.display,
            "%s - %s" % (d.stem, d.doc or "messages of the %s domain" % d.name),
            [
                "Structs and codecs of the %s domain. Included by proto.h: include "
                "bus.h, not this file. proto.h documents the functions every struct "
                "type T has (init, clear, check, write, writer for requests, encode, read, "
                "decode, print)." % d.name
            ],
        )
    )
    guard = "%s_H_INCLUDED" % d.stem.upper()
    o.add("#ifndef " + guard, "#define " + guard, "")
    names = [(e.name, e.doc) for e in d.events] + [(m.name, m.doc) for m in d.methods]
    if names:
        o.add("//  Topics (events) and method names (RPC).")
        macros = [("PROTO_" + n.upper().replace(".", "_"), n) for n, _ in names]
        width = max(len(m) for m, _ in macros)
        for macro, name in macros:
            o.add("#define %s %s" % (macro.ljust(width), c_string(name)))
    for s in d.structs:
        o.rule(struct_title(s))
        o.add("typedef struct {")
        for f in s.fields:
            if f.comment():
                o.comment(f.comment(), "    ")
            o.add(["    " + decl for decl in member_decls(f)])
        o.add("    void *owned_; //  the decoder's arena, freed by clear; NULL when filled by hand")
        o.add("} %s;" % s.ctype, "")
        #  The most items of each counted field and the most bytes of each
        #  string and bytes field, so that a producer checks input against
        #  the schema's own number instead of a copy of it.
        limits = [(limit_macro(s, f), f.max) for f in s.fields if has_limit(f)]
        if limits:
            width = max(len(m) for m, _ in limits)
            for macro, value in limits:
                o.add("#define %s %d" % (macro.ljust(width), value))
            o.add("")
        t = s.ctype
        o.add(signature("void", s.fn("init"), [t + " *self"], False))
        o.add(signature("void", s.fn("clear"), [t + " *self"], False))
        o.add(
            signature("PROTO_MUST_USE int", s.fn("check"), ["const %s *self" % t, "bus_error_t *err"], False)
        )
        o.add(
            signature(
                "PROTO_MUST_USE int", s.fn("write"), ["const %s *self" % t, "bus_writer_t *writer"], False
            )
        )
        if s.kind == "request":
            o.add(
                signature(
                    "PROTO_MUST_USE bus_writer_t *",
                    s.fn("writer"),
                    ["const %s *self" % t, "bus_error_t *err"],
                    False,
                )
            )
        o.add(signature("PROTO_MUST_USE zframe_t *", s.fn("encode"), ["const %s *self" % t], False))
        o.add(
            signature(
                "int", s.fn("read"), [t + " *self", "const bus_value_t *map", "bus_error_t *err"], False
            )
        )
        o.add(
            signature(
                "int",
                s.fn("decode"),
                [t + " *self", "const void *data", "size_t size", "bus_error_t *err"],
                False,
            )
        )
        o.add(signature("char *", s.fn("print"), ["const %s *self" % t], False))
    o.blank()
    o.add("#endif")
    return o.text()


def has_limit(f):
    """A field that gets a PROTO_<STRUCT>_<FIELD>_MAX constant."""
    return f.max is not None and (f.counted or f.pointer)


def limit_macro(s, f):
    return "%s_%s_MAX" % (s.ctype[: -len("_t")].upper(), f.name.upper())


def struct_title(s):
    doc = (": " + s.doc) if s.doc else ""
    if s.kind == "type":
        return "%s, a nested value%s" % (s.label, doc)
    if s.kind == "event":
        flags = ["broadcast" if s.broadcast else "anycast"]
        if s.durable:
            flags.append("durable")
        return "%s, event (%s)%s" % (s.name, ", ".join(flags), doc)
    flag = "idempotent" if s.idempotent else "not idempotent"
    return "%s (%s)%s" % (s.label, flag, doc)


def member_decls(f):
    t = f.type
    n = f.name
    if t == "string":
        return ["const char *%s;" % n]
    if t == "bytes":
        return ["const uint8_t *%s;" % n, "size_t %s_size;" % n]
    if t == "uuid":
        return ["uint8_t %s[PROTO_UUID_SIZE];" % n]
    if t in ("int", "time"):
        return ["int64_t %s;" % n]
    if t == "uint":
        return ["uint64_t %s;" % n]
    if t == "bool":
        return ["bool %s;" % n]
    if t == "double":
        return ["double %s;" % n]
    if t == "strings":
        return ["const char *const *%s;" % n, "size_t %s_count;" % n]
    if t == "map":
        return ["const proto_kv_t *%s;" % n, "size_t %s_count;" % n]
    if t == "list":
        return ["const %s *%s;" % (f.of.ctype, n), "size_t %s_count;" % n]
    return ["%s %s;" % (f.struct.ctype, n)]


# ---------------------------------------------------------------------------
# proto_<domain>.c


def gen_domain_c(d):
    o = Out()
    o.add(
        banner(
            d.display,
            "%s - codecs of the %s domain" % (d.stem, d.name),
            [
                "For each struct: file-static check, write, read and print "
                "helpers that nested values reuse, then the public functions of "
                "%s.h built on them. Reading and printing go through the "
                "shared runtime in proto.c." % d.stem
            ],
        )
    )
    o.add('#include "bus_classes.h"')
    for s in d.structs:
        o.rule(s.label)
        gen_statics(o, s)
        gen_publics(o, s)
    return o.text()


def gen_statics(o, s):
    t = s.ctype
    I = "    "

    # check: the encoder's checks, so that a refused write leaves the writer
    # untouched; the first failure names its field in ck's err
    o.add(signature("static bool", s.s("check"), ["const %s *self" % t, "proto_check_t *ck"], True), "{")
    body = []
    if any(f.struct is not None for f in s.fields):
        body.append(I + "proto_check_t sub;")
    for f in s.fields:
        n = f.name
        key = '"%s"' % n
        args = None
        if f.type == "string":
            args = ("proto_check_str(", ["ck", key, "self->" + n, f.flags(), f.size_max()])
        elif f.type == "bytes":
            args = ("proto_check_bytes(",
                    ["ck", key, "self->" + n, "self->%s_size" % n, f.flags(), f.size_max()])
        elif f.type == "strings":
            args = ("proto_check_strs(", ["ck", key, "self->" + n, "self->%s_count" % n, f.size_max()])
        elif f.type == "map":
            args = ("proto_check_map(", ["ck", key, "self->" + n, "self->%s_count" % n, f.size_max()])
        elif f.type == "list":
            args = ("proto_check_count(", ["ck", key, "self->" + n, "self->%s_count" % n, f.size_max()])
        elif f.type == "int" and (f.min not in (None, INT64_MIN) or f.max not in (None, INT64_MAX)):
            low = c_int(f.min) if f.min is not None else "INT64_MIN"
            high = c_int(f.max) if f.max is not None else "INT64_MAX"
            args = ("proto_check_int(", ["ck", key, "self->" + n, low, high])
        elif f.type == "uint" and f.max not in (None, UINT64_MAX):
            args = ("proto_check_uint(", ["ck", key, "self->" + n, c_uint(f.max)])
        if args:
            body.extend(call(I, "if (!" + args[0], args[1], "))"))
            body.append(I + I + "return false;")
        if f.struct is not None:
            body.append(I + "proto_check_enter(ck, &sub, %s, PROTO_NO_INDEX);" % key)
            body.append(I + "if (!%s(&self->%s, &sub))" % (f.struct.s("check"), n))
            body.append(I + I + "return false;")
        if f.type == "list":
            body.append(I + "for (size_t i = 0; i < self->%s_count; i++) {" % n)
            body.append(I + I + "proto_check_t item;")
            body.append(I + I + "proto_check_enter(ck, &item, %s, i);" % key)
            body.append(I + I + "if (!%s(&self->%s[i], &item))" % (f.of.s("check"), n))
            body.append(I + I + I + "return false;")
            body.append(I + "}")
    if not body:
        body.append(I + "(void) self;")
        body.append(I + "(void) ck;")
    o.add(body, I + "return true;", "}", "")

    # write: one msgpack map; absent optional values are left out
    o.add(
        signature("static void", s.s("write"), ["const %s *self" % t, "bus_writer_t *writer"], True),
        "{",
    )
    always = sum(1 for f in s.fields if f.sometimes() is None)
    conditions = [f.sometimes() for f in s.fields if f.sometimes() is not None]
    if not s.fields:
        o.add(I + "(void) self;")
    if conditions:
        o.add(I + "uint32_t pairs = %d;" % always)
        for cond in conditions:
            o.add(I + "pairs += %s;" % cond)
        o.add(I + "bus_writer_map(writer, pairs);")
    else:
        o.add(I + "bus_writer_map(writer, %d);" % always)
    for f in s.fields:
        gen_write_field(o, f)
    o.add("}", "")

    # read: a flat list of reads; the first failure sticks in `in`
    o.add(signature("static void", s.s("read"), [t + " *self", "proto_in_t *in"], True), "{")
    if not s.fields:
        o.add(I + "(void) self;", I + "(void) in;")
    if any(f.struct is not None for f in s.fields):
        o.add(I + "proto_in_t sub;")
    for f in s.fields:
        gen_read_field(o, f)
    o.add("}", "")

    # print: logfmt, nested values as name.field=...
    o.add(
        signature("static void", s.s("print"), ["const %s *self" % t, "proto_text_t *text"], True),
        "{",
    )
    if not s.fields:
        o.add(I + "(void) self;", I + "(void) text;")
    if any(f.struct is not None and not f.secret for f in s.fields):
        o.add(I + "size_t mark;")
    for f in s.fields:
        gen_print_field(o, f)
    o.add("}", "")

    if s.used_in_list:
        o.comment("A list item: calloc'd memory, initialised before it is read.")
        o.add(signature("static void", s.s("item"), ["void *item", "proto_in_t *in"], True), "{")
        o.add(I + "%s(item);" % s.fn("init"), I + "%s(item, in);" % s.s("read"), "}", "")


def gen_write_field(o, f):
    I = "    "
    n = f.name
    key = '"%s"' % n
    cond = f.sometimes()
    indent = I + I if cond else I
    lines = []
    if f.type == "string":
        lines = call(indent, "proto_write_str(", ["writer", key, "self->" + n])
    elif f.type == "bytes":
        lines = call(indent, "proto_write_bytes(", ["writer", key, "self->" + n, "self->%s_size" % n])
    elif f.type == "uuid":
        lines = call(indent, "proto_write_uuid(", ["writer", key, "self->" + n])
    elif f.type in ("int", "time"):
        lines = call(indent, "proto_write_int(", ["writer", key, "self->" + n])
    elif f.type == "uint":
        lines = call(indent, "proto_write_uint(", ["writer", key, "self->" + n])
    elif f.type == "bool":
        lines = call(indent, "proto_write_bool(", ["writer", key, "self->" + n])
    elif f.type == "double":
        lines = call(indent, "proto_write_double(", ["writer", key, "self->" + n])
    elif f.type == "strings":
        lines = call(indent, "proto_write_strs(", ["writer", key, "self->" + n, "self->%s_count" % n])
    elif f.type == "map":
        lines = call(indent, "proto_write_map(", ["writer", key, "self->" + n, "self->%s_count" % n])
    elif f.type == "list":
        inner = indent
        lines = call(inner, "proto_write_array(", ["writer", key, "self->%s_count" % n])
        lines.append(inner + "for (size_t i = 0; i < self->%s_count; i++)" % n)
        lines.append(inner + I + "%s(&self->%s[i], writer);" % (f.of.s("write"), n))
    else:
        lines = [indent + "bus_writer_str(writer, %s);" % key]
        lines.append(indent + "%s(&self->%s, writer);" % (f.struct.s("write"), n))
    if cond:
        if len(lines) > 1:
            o.add(I + "if (%s) {" % cond, lines, I + "}")
        else:
            o.add(I + "if (%s)" % cond, lines)
    else:
        o.add(lines)


def gen_read_field(o, f):
    I = "    "
    n = f.name
    key = '"%s"' % n
    flags = f.flags()
    t = f.type
    if t == "string":
        o.add(call(I, "proto_read_str(", ["in", key, flags, f.size_max(), "&self->" + n]))
    elif t == "bytes":
        o.add(
            call(
                I,
                "proto_read_bytes(",
                ["in", key, flags, f.size_max(), "&self->" + n, "&self->%s_size" % n],
            )
        )
    elif t == "uuid":
        o.add(call(I, "proto_read_uuid(", ["in", key, flags, "self->" + n]))
    elif t == "int":
        low = c_int(f.min) if f.min is not None else "INT64_MIN"
        high = c_int(f.max) if f.max is not None else "INT64_MAX"
        o.add(call(I, "proto_read_int(", ["in", key, flags, low, high, "&self->" + n]))
    elif t == "time":
        o.add(call(I, "proto_read_int(", ["in", key, flags, "INT64_MIN", "INT64_MAX", "&self->" + n]))
    elif t == "uint":
        high = c_uint(f.max) if f.max is not None else "UINT64_MAX"
        o.add(call(I, "proto_read_uint(", ["in", key, flags, high, "&self->" + n]))
    elif t == "bool":
        o.add(call(I, "proto_read_bool(", ["in", key, flags, "&self->" + n]))
    elif t == "double":
        o.add(call(I, "proto_read_double(", ["in", key, flags, "&self->" + n]))
    elif t == "strings":
        o.add(
            call(
                I,
                "self->%s = proto_read_strs(" % n,
                ["in", key, flags, f.size_max(), "&self->%s_count" % n],
            )
        )
    elif t == "map":
        o.add(
            call(
                I,
                "self->%s = proto_read_map(" % n,
                ["in", key, flags, f.size_max(), "&self->%s_count" % n],
            )
        )
    elif t == "list":
        o.add(
            call(
                I,
                "self->%s = proto_read_list(" % n,
                [
                    "in",
                    key,
                    flags,
                    f.size_max(),
                    "sizeof *self->" + n,
                    f.of.s("item"),
                    "&self->%s_count" % n,
                ],
            )
        )
    else:
        o.add(call(I, "if (proto_read_nested(", ["in", key, flags, "&sub"], "))"))
        o.add(I + I + "%s(&self->%s, &sub);" % (f.struct.s("read"), n))


def gen_print_field(o, f):
    I = "    "
    n = f.name
    key = '"%s"' % n
    t = f.type
    if f.secret:
        cond = None
        if f.pointer:
            cond = "self->%s != NULL" % n
        elif f.counted:
            cond = "self->%s_count > 0" % n
        line = "proto_print_redacted(text, %s);" % key
        if cond:
            o.add(I + "if (%s)" % cond, I + I + line)
        else:
            o.add(I + line)
        return
    simple = {
        "string": "proto_print_str",
        "uuid": "proto_print_uuid",
        "int": "proto_print_int",
        "time": "proto_print_int",
        "uint": "proto_print_uint",
        "bool": "proto_print_bool",
        "double": "proto_print_double",
    }
    if t in simple:
        o.add(call(I, simple[t] + "(", ["text", key, "self->" + n]))
    elif t == "bytes":
        o.add(call(I, "proto_print_bytes(", ["text", key, "self->" + n, "self->%s_size" % n]))
    elif f.counted:
        o.add(call(I, "proto_print_count(", ["text", key, "self->%s_count" % n]))
    else:
        o.add(I + "mark = proto_text_enter(text, %s);" % key)
        o.add(I + "%s(&self->%s, text);" % (f.struct.s("print"), n))
        o.add(I + "proto_text_leave(text, mark);")


def gen_publics(o, s):
    t = s.ctype
    I = "    "
    o.add(signature("void", s.fn("init"), [t + " *self"], True), "{")
    o.add(I + "assert(self);", I + "memset(self, 0, sizeof *self);")
    for f in s.fields:
        n = f.name
        if f.default is not None:
            if f.type == "string":
                o.add(I + "self->%s = %s;" % (n, c_string(f.default)))
            elif f.type == "bool":
                o.add(I + "self->%s = %s;" % (n, "true" if f.default else "false"))
            elif f.type == "double":
                o.add(I + "self->%s = %s;" % (n, c_double(f.default)))
            elif f.type == "uint":
                o.add(I + "self->%s = %s;" % (n, c_uint(f.default)))
            else:
                o.add(I + "self->%s = %s;" % (n, c_int(f.default)))
        elif f.struct is not None and f.struct.needs_init():
            o.add(I + "%s(&self->%s);" % (f.struct.fn("init"), n))
    o.add("}", "")

    o.add(signature("void", s.fn("clear"), [t + " *self"], True), "{")
    o.add(I + "assert(self);", I + "proto_arena_free(&self->owned_);")
    for f in s.fields:
        if f.struct is not None:
            o.add(I + "%s(&self->%s);" % (f.struct.fn("clear"), f.name))
    o.add(I + "memset(self, 0, sizeof *self);")
    o.add("}", "")

    o.add(signature("int", s.fn("check"), ["const %s *self" % t, "bus_error_t *err"], True))
    o.add("{", I + "assert(self);", I + "proto_check_t ck;")
    o.add(I + 'proto_check_init(&ck, "%s", err);' % s.label)
    o.add(I + "return %s(self, &ck) ? BUS_OK : BUS_STATUS_INVALID;" % s.s("check"), "}", "")

    o.add(signature("int", s.fn("write"), ["const %s *self" % t, "bus_writer_t *writer"], True))
    o.add("{", I + "assert(self);", I + "assert(writer);")
    o.add(I + "if (%s(self, NULL) != BUS_OK)" % s.fn("check"), I + I + "return -1;")
    o.add(I + "%s(self, writer);" % s.s("write"), I + "return 0;", "}", "")

    if s.kind == "request":
        o.add(signature("bus_writer_t *", s.fn("writer"), ["const %s *self" % t, "bus_error_t *err"], True))
        o.add("{", I + "assert(self);")
        o.add(I + "if (%s(self, err) != BUS_OK)" % s.fn("check"), I + I + "return NULL;")
        o.add(I + "bus_writer_t *writer = bus_writer_new();")
        o.add(I + "if (!writer) {")
        o.add(I + I + 'bus_error_set(err, BUS_STATUS_INTERNAL, "%s: out of memory");' % s.label)
        o.add(I + I + "return NULL;", I + "}")
        o.add(I + "%s(self, writer);" % s.s("write"), I + "return writer;", "}", "")

    o.add(signature("zframe_t *", s.fn("encode"), ["const %s *self" % t], True), "{")
    o.add(I + "bus_writer_t *writer = bus_writer_new();", I + "zframe_t *frame = NULL;")
    o.add(call(I, "if (writer && %s(" % s.fn("write"), ["self", "writer"], ") == 0)"))
    o.add(I + I + "frame = bus_writer_frame(writer);")
    o.add(I + "bus_writer_destroy(&writer);", I + "return frame;", "}", "")

    o.add(
        signature("int", s.fn("read"), [t + " *self", "const bus_value_t *map", "bus_error_t *err"], True)
    )
    o.add("{", I + "proto_in_t in;", I + "%s(self);" % s.fn("init"))
    o.add(I + 'proto_in_init(&in, "%s", map, &self->owned_, err);' % s.label)
    o.add(I + "%s(self, &in);" % s.s("read"))
    o.add(I + "if (in.status != BUS_OK)", I + I + "%s(self);" % s.fn("clear"))
    o.add(I + "return in.status;", "}", "")

    o.add(
        signature(
            "int",
            s.fn("decode"),
            [t + " *self", "const void *data", "size_t size", "bus_error_t *err"],
            True,
        )
    )
    o.add("{", I + "bus_reader_t *reader = bus_reader_local();")
    o.add(I + "const bus_value_t *map = reader ? bus_reader_parse(reader, data, size) : NULL;")
    o.add(I + "return %s(self, map, err);" % s.fn("read"), "}", "")

    o.add(signature("char *", s.fn("print"), ["const %s *self" % t], True), "{")
    o.add(I + "assert(self);", I + "proto_text_t text;", I + "proto_text_init(&text);")
    o.add(I + "%s(self, &text);" % s.s("print"), I + "return proto_text_finish(&text);", "}")


# ---------------------------------------------------------------------------
# proto.h and proto.c

PROTO_H_INTRO = [
    "proto - the message schemas of Backplane: one C struct per event, RPC "
    "request, RPC reply and nested type, with its codec, generated from "
    "proto/<domain>.yaml by proto/gen.py (see proto/README.md)",
    "Every struct type T has:",
]

PROTO_H_API = """\
      void proto_T_init (T *self)      zero, then the schema defaults
      void proto_T_clear (T *self)     free what self owns and zero it; it
                                       owns nothing after (init again to
                                       reuse it with the schema defaults)
      int proto_T_check (self, err)    BUS_OK when self keeps its schema:
                                       required strings and bytes set, lengths,
                                       counts and numbers within their limits,
                                       nested values and list items too; else
                                       BUS_STATUS_INVALID, and err->detail names
                                       the field ("kernel.execute request:
                                       field 'run_id': 65 bytes, at most 64")
      int proto_T_write (self, writer) check, then append one msgpack map; 0,
                                       or -1 when check refuses (the writer is
                                       then unchanged: nothing appended)
      bus_writer_t *proto_T_writer (self, err)   requests only: check, then a
                                       new writer holding the map, or NULL
                                       with err set (BUS_STATUS_INVALID from
                                       check, BUS_STATUS_INTERNAL when memory
                                       ran out). Caller owns return value.
      zframe_t *proto_T_encode (self)  the same as a new frame, or NULL.
                                       Caller owns return value.
          check, write, writer and encode are PROTO_MUST_USE: the compiler
          refuses a caller that drops their result. A value that comes from
          outside (an HTTP request) is checked before it is sent, and a
          refusal answered as the caller's mistake (400, BUS_STATUS_INVALID).
      int proto_T_read (self, map, err)         from a parsed map
      int proto_T_decode (self, data, size, err) from bytes
          Both initialise self first, so self must not own anything yet.
          BUS_OK; BUS_STATUS_PROTOCOL when the bytes are not one msgpack map
          or a known key has the wrong wire type; BUS_STATUS_INVALID when a
          required field is missing or a value breaks its limits. On failure
          self is cleared and err->detail names the field ("service.started:
          field 'pid': expected uint"). Unknown keys are ignored; a nil value
          counts as absent.
      char *proto_T_print (self)       logfmt for logs. Caller owns return
                                       value."""

PROTO_H_REST = """\
#ifndef PROTO_H_INCLUDED
#define PROTO_H_INCLUDED

#include "bus_codec.h"
#include "bus_status.h"

#define PROTO_UUID_SIZE 16         //  bytes in a uuid field
#define PROTO_UNLIMITED UINT32_MAX //  no schema max: msgpack's own limit
#define PROTO_REQUIRED  1          //  read and check flag: the key must be there
#define PROTO_PATH_MAX  96         //  "peers[12].node" in error details

#define PROTO_ARENA_BLOCK  1024 //  bytes of a decoder's arena block
#define PROTO_ARENA_ALIGN  16   //  every arena allocation starts on this boundary

//  On check, write, writer and encode: a result the caller must look at, so
//  that a refused message can never travel as an empty or partial body.
#define PROTO_MUST_USE __attribute__((warn_unused_result))

//  A map field: pairs in wire order. Borrowed, like every pointer in a struct:
//  the decoder points them into its arena, a producer anywhere it likes.
typedef struct {
    const char *key;
    const char *value;
} proto_kv_t;

"""

PROTO_H_REGISTRY = """\
//  ---------------------------------------------------------------------------
//  The registry: every event, request and reply by name, for code that handles
//  messages whose type it does not know (logging, validation, the fuzzer).

typedef enum { PROTO_EVENT, PROTO_REQUEST, PROTO_REPLY } proto_kind_t;

typedef struct {
    const char *name; //  topic or method name
    proto_kind_t kind;
    bool broadcast;  //  events: true broadcast, false anycast
    bool durable;    //  events: written to the publisher's outbox, replayable
    bool idempotent; //  requests and replies: the method may be retried
    //  Decode and throw away: BUS_OK, or the decoder's status and detail.
    int (*validate)(const void *data, size_t size, bus_error_t *err);
    //  Decode and print; NULL on bad input. Caller owns return value.
    char *(*print)(const void *data, size_t size);
    //  The fuzzer's oracle: decode, encode, decode again, and compare the
    //  prints and the bytes. 0 when they match or the input does not decode.
    int (*roundtrip)(const void *data, size_t size);
} proto_entry_t;

extern const proto_entry_t proto_entries[];
extern const size_t proto_entry_count;

//  The entry for a name and kind, or NULL if unknown.
const proto_entry_t *proto_lookup(const char *name, proto_kind_t kind);

//  True when the schema marks the method idempotent (safe to retry); false
//  when it does not or the method is unknown.
bool proto_method_idempotent(const char *method);

//  "event", "request" or "reply".
const char *proto_kind_str(proto_kind_t kind);

//  ---------------------------------------------------------------------------
//  The runtime the generated codecs share. Services use the typed functions.

//  Reading state for one map. The first failure sticks in status (and in every
//  parent's), later reads do nothing, so a generated reader is a flat list of
//  calls and checks the status once at the end.
typedef struct _proto_in_t proto_in_t;
struct _proto_in_t {
    const bus_value_t *map;
    const char *message;       //  "service.started", first word of every detail
    char path[PROTO_PATH_MAX]; //  "" at the top, "peers[2]." inside nested values
    int status;                //  BUS_OK until the first failure
    bus_error_t *err;          //  may be NULL
    proto_in_t *parent;        //  the map this one is nested in, or NULL
    void **owned;              //  the top struct's arena: every copy goes there
};

//  Reads one item of a list into calloc'd memory (it must initialise it).
typedef void(proto_read_fn)(void *item, proto_in_t *in);

//  Starts reading map into a struct whose arena is *owned (NULL until the
//  first copy); fails with BUS_STATUS_PROTOCOL when it is not a map (NULL
//  included). Resets err to BUS_OK first.
void proto_in_init(proto_in_t *self,
                   const char *message,
                   const bus_value_t *map,
                   void **owned,
                   bus_error_t *err);

//  The arena behind a decoded struct: a chain of blocks, usually one, that
//  holds every string, byte string, array and list item the decoder copied.
//  alloc returns size bytes (uninitialised, aligned) or NULL when memory ran
//  out; free releases the whole chain and sets *owned to NULL.
void *proto_arena_alloc(void **owned, size_t size);
void proto_arena_free(void **owned);
//  Copies into a struct's arena, for a producer that wants the struct to own
//  what it points to (proto_arena_strdup (&x.owned_, text)): clear frees it.
//  NULL in gives NULL out, as does a failed allocation.
char *proto_arena_strdup(void **owned, const char *text);
void *proto_arena_memdup(void **owned, const void *data, size_t size);
//  Hands heap memory (malloc'd) to a struct's arena, so that clear frees it:
//  for a large buffer a producer already holds. 0; -1 when memory ran out,
//  and then the caller still owns memory.
int proto_arena_adopt(void **owned, void *memory);
//  Moves every block of the arena *other into *owned and sets *other to
//  NULL: for items a producer filled each with an arena of its own (a list
//  read row by row), handed whole to the struct that sends them.
void proto_arena_join(void **owned, void **other);

//  Each reader looks up key and, when present (and not nil), checks and stores
//  its value; a missing key with PROTO_REQUIRED fails with BUS_STATUS_INVALID.
//  Strings and bytes are copied into the arena; *out is replaced, not freed.
void
proto_read_str(proto_in_t *in, const char *key, int flags, size_t max, const char **out);
void proto_read_bytes(proto_in_t *in,
                      const char *key,
                      int flags,
                      size_t max,
                      const uint8_t **out,
                      size_t *size);
void proto_read_uuid(proto_in_t *in, const char *key, int flags, uint8_t *out);
void proto_read_int(
    proto_in_t *in, const char *key, int flags, int64_t min, int64_t max, int64_t *out);
void
proto_read_uint(proto_in_t *in, const char *key, int flags, uint64_t max, uint64_t *out);
void proto_read_bool(proto_in_t *in, const char *key, int flags, bool *out);
void proto_read_double(proto_in_t *in, const char *key, int flags, double *out);

//  Arrays, in the arena: NULL when absent, empty or failed, and the count.
const char *const *
proto_read_strs(proto_in_t *in, const char *key, int flags, size_t max, size_t *count);
const proto_kv_t *
proto_read_map(proto_in_t *in, const char *key, int flags, size_t max, size_t *count);
//  Items are zeroed, then read by read; on failure the caller's clear frees
//  the arena, and with it the items.
void *proto_read_list(proto_in_t *in,
                      const char *key,
                      int flags,
                      size_t max,
                      size_t item_size,
                      proto_read_fn *read,
                      size_t *count);

//  A nested map: true, with sub ready to read it, when present and a map.
bool proto_read_nested(proto_in_t *in, const char *key, int flags, proto_in_t *sub);

//  Checking state for one struct, the writer's side of proto_in_t: the message
//  label and the path of nested values, so that a failure names its field.
typedef struct _proto_check_t proto_check_t;
struct _proto_check_t {
    const char *message;       //  "kernel.execute request", first word of the detail
    char path[PROTO_PATH_MAX]; //  "" at the top, "events[2]." inside nested values
    bus_error_t *err;          //  may be NULL
};

#define PROTO_NO_INDEX SIZE_MAX //  proto_check_enter: a nested value, not a list item

//  Starts checking a struct; resets err to BUS_OK first.
void proto_check_init(proto_check_t *self, const char *message, bus_error_t *err);
//  Prepares sub to check the nested value at key, or the list item key[index].
void proto_check_enter(proto_check_t *self,
                       proto_check_t *sub,
                       const char *key,
                       size_t index);

//  The encoder's checks, one per field: true when the value keeps the schema;
//  false after setting err to BUS_STATUS_INVALID with a detail that names the
//  field ("kernel.execute request: field 'run_id': 65 bytes, at most 64"). max
//  is bytes for strings and bytes, items for arrays, pairs for maps.
bool proto_check_str(
    proto_check_t *self, const char *key, const char *value, int flags, size_t max);
bool proto_check_bytes(proto_check_t *self,
                       const char *key,
                       const uint8_t *data,
                       size_t size,
                       int flags,
                       size_t max);
bool proto_check_strs(proto_check_t *self,
                      const char *key,
                      const char *const *items,
                      size_t count,
                      size_t max);
bool proto_check_map(proto_check_t *self,
                     const char *key,
                     const proto_kv_t *pairs,
                     size_t count,
                     size_t max);
bool proto_check_count(
    proto_check_t *self, const char *key, const void *items, size_t count, size_t max);
bool proto_check_int(
    proto_check_t *self, const char *key, int64_t value, int64_t min, int64_t max);
bool proto_check_uint(proto_check_t *self, const char *key, uint64_t value, uint64_t max);

//  Writers: the key, then the value.
void proto_write_str(bus_writer_t *writer, const char *key, const char *value);
void proto_write_bytes(bus_writer_t *writer,
                       const char *key,
                       const uint8_t *data,
                       size_t size);
void proto_write_uuid(bus_writer_t *writer, const char *key, const uint8_t *uuid);
void proto_write_int(bus_writer_t *writer, const char *key, int64_t value);
void proto_write_uint(bus_writer_t *writer, const char *key, uint64_t value);
void proto_write_bool(bus_writer_t *writer, const char *key, bool value);
void proto_write_double(bus_writer_t *writer, const char *key, double value);
void proto_write_strs(bus_writer_t *writer,
                      const char *key,
                      const char *const *items,
                      size_t count);
void proto_write_map(bus_writer_t *writer,
                     const char *key,
                     const proto_kv_t *pairs,
                     size_t count);
//  The key and an array header; the caller writes the items.
void proto_write_array(bus_writer_t *writer, const char *key, size_t count);

//  A logfmt line being built: key=value pairs separated by spaces, values
//  quoted when they need it.
typedef struct {
    char *data;
    size_t size;
    size_t allocated;
    bool failed;                 //  out of memory: finish returns NULL
    char prefix[PROTO_PATH_MAX]; //  "x." while printing nested value x
} proto_text_t;

void proto_text_init(proto_text_t *self);
//  The line, or NULL when memory ran out. Caller owns return value.
char *proto_text_finish(proto_text_t *self);
//  Prefix the keys of a nested value with "key."; leave restores the mark.
size_t proto_text_enter(proto_text_t *self, const char *key);
void proto_text_leave(proto_text_t *self, size_t mark);

//  Printers: NULL strings and bytes and empty arrays print nothing; bytes
//  print as <N bytes>, arrays as key=[N], uuids as 8-4-4-4-12 hex.
void proto_print_str(proto_text_t *text, const char *key, const char *value);
void
proto_print_bytes(proto_text_t *text, const char *key, const uint8_t *data, size_t size);
void proto_print_uuid(proto_text_t *text, const char *key, const uint8_t *uuid);
void proto_print_int(proto_text_t *text, const char *key, int64_t value);
void proto_print_uint(proto_text_t *text, const char *key, uint64_t value);
void proto_print_bool(proto_text_t *text, const char *key, bool value);
void proto_print_double(proto_text_t *text, const char *key, double value);
void proto_print_count(proto_text_t *text, const char *key, size_t count);
void proto_print_redacted(proto_text_t *text, const char *key);

#endif
"""

PROTO_C_RUNTIME = r"""
static void s_fail(proto_in_t *in, const char *key, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

//  ---------------------------------------------------------------------------
//  Registry lookups: a linear scan, the table is small.

const proto_entry_t *
proto_lookup(const char *name, proto_kind_t kind)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < proto_entry_count; i++)
        if (proto_entries[i].kind == kind && strcmp(proto_entries[i].name, name) == 0)
            return &proto_entries[i];
    return NULL;
}

bool
proto_method_idempotent(const char *method)
{
    const proto_entry_t *entry = proto_lookup(method, PROTO_REQUEST);
    return entry && entry->idempotent;
}

const char *
proto_kind_str(proto_kind_t kind)
{
    switch (kind) {
        case PROTO_EVENT:
            return "event";
        case PROTO_REQUEST:
            return "request";
        case PROTO_REPLY:
            return "reply";
    }
    return "unknown";
}

//  ---------------------------------------------------------------------------
//  Reading

void
proto_in_init(proto_in_t *self,
              const char *message,
              const bus_value_t *map,
              void **owned,
              bus_error_t *err)
{
    assert(self);
    assert(message);
    assert(owned);
    memset(self, 0, sizeof *self);
    self->map = map;
    self->message = message;
    self->err = err;
    self->owned = owned;
    if (err) {
        err->status = BUS_OK;
        err->detail[0] = 0;
    }
    if (bus_value_type(map) != BUS_VALUE_MAP) {
        self->status = BUS_STATUS_PROTOCOL;
        bus_error_set(err, BUS_STATUS_PROTOCOL, "%s: not a msgpack map", message);
    }
}

//  An arena block: this header, then its bytes. The head of the chain is the
//  block being filled; a large allocation gets a block of its own, linked in
//  behind the head so that the head's free bytes stay in use.
typedef struct _proto_block_t proto_block_t;
struct _proto_block_t {
    proto_block_t *next;
    size_t size;   //  bytes after the header
    size_t used;
    void *adopted; //  heap memory freed with the block (proto_arena_adopt)
};

#define PROTO_BLOCK_HEADER                                                              \
    ((sizeof(proto_block_t) + PROTO_ARENA_ALIGN - 1) & ~(size_t) (PROTO_ARENA_ALIGN - 1))

void *
proto_arena_alloc(void **owned, size_t size)
{
    assert(owned);
    if (size > SIZE_MAX - PROTO_BLOCK_HEADER - PROTO_ARENA_ALIGN)
        return NULL;
    size = (size + PROTO_ARENA_ALIGN - 1) & ~(size_t) (PROTO_ARENA_ALIGN - 1);
    if (size == 0)
        size = PROTO_ARENA_ALIGN; //  present-but-empty is not NULL
    proto_block_t *head = *owned;
    if (head && head->size - head->used >= size) {
        void *memory = (uint8_t *) head + PROTO_BLOCK_HEADER + head->used;
        head->used += size;
        return memory;
    }
    bool own = size > PROTO_ARENA_BLOCK / 4;
    size_t capacity = own ? size : PROTO_ARENA_BLOCK;
    proto_block_t *block = malloc(PROTO_BLOCK_HEADER + capacity);
    if (!block)
        return NULL;
    block->size = capacity;
    block->used = size;
    block->adopted = NULL;
    if (own && head) {
        block->next = head->next;
        head->next = block;
    } else {
        block->next = head;
        *owned = block;
    }
    return (uint8_t *) block + PROTO_BLOCK_HEADER;
}

void
proto_arena_free(void **owned)
{
    assert(owned);
    proto_block_t *block = *owned;
    while (block) {
        proto_block_t *next = block->next;
        free(block->adopted);
        free(block);
        block = next;
    }
    *owned = NULL;
}

int
proto_arena_adopt(void **owned, void *memory)
{
    assert(owned);
    if (!memory)
        return 0;
    proto_block_t *block = malloc(PROTO_BLOCK_HEADER);
    if (!block)
        return -1;
    block->size = block->used = 0;
    block->adopted = memory;
    proto_block_t *head = *owned;
    if (head) { //  behind the head, which stays the block being filled
        block->next = head->next;
        head->next = block;
    } else {
        block->next = NULL;
        *owned = block;
    }
    return 0;
}

void
proto_arena_join(void **owned, void **other)
{
    assert(owned && other);
    proto_block_t *first = *other;
    if (!first)
        return;
    proto_block_t *last = first;
    while (last->next)
        last = last->next;
    proto_block_t *head = *owned;
    if (head) { //  behind the head, which stays the block being filled
        last->next = head->next;
        head->next = first;
    } else
        *owned = first;
    *other = NULL;
}

char *
proto_arena_strdup(void **owned, const char *text)
{
    return text ? proto_arena_memdup(owned, text, strlen(text) + 1) : NULL;
}

void *
proto_arena_memdup(void **owned, const void *data, size_t size)
{
    void *copy = data ? proto_arena_alloc(owned, size) : NULL;
    if (copy)
        memcpy(copy, data, size);
    return copy;
}

//  size bytes of the arena, or NULL after recording the failure.
static void *
s_alloc(proto_in_t *in, const char *key, size_t size)
{
    void *memory = proto_arena_alloc(in->owned, size);
    if (!memory)
        s_fail(in, key, BUS_STATUS_INTERNAL, "out of memory");
    return memory;
}

//  Records the first failure, in this map and every map around it.
static void
s_fail(proto_in_t *in, const char *key, int status, const char *fmt, ...)
{
    if (in->status != BUS_OK)
        return;
    char reason[BUS_ERROR_DETAIL_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    for (proto_in_t *map = in; map; map = map->parent)
        map->status = status;
    bus_error_set(in->err, status, "%s: field '%s%s': %s", in->message, in->path, key,
                  reason);
}

//  The value under key, or NULL when absent, nil, or reading already failed.
static const bus_value_t *
s_find(proto_in_t *in, const char *key, int flags)
{
    if (in->status != BUS_OK)
        return NULL;
    const bus_value_t *value = bus_value_map_find(in->map, key);
    if (bus_value_type(value) == BUS_VALUE_NIL)
        value = NULL;
    if (!value && (flags & PROTO_REQUIRED))
        s_fail(in, key, BUS_STATUS_INVALID, "missing");
    return value;
}

//  A NUL-terminated copy of a string value no longer than max, or NULL after
//  a failure. what names the value in the detail ("", "item 3: ").
static char *
s_copy_str(proto_in_t *in,
           const char *key,
           const char *what,
           const bus_value_t *value,
           size_t max)
{
    const char *ptr;
    size_t len;
    if (!bus_value_get_str(value, &ptr, &len)) {
        s_fail(in, key, BUS_STATUS_PROTOCOL, "%sexpected string", what);
        return NULL;
    }
    if (len > max) {
        s_fail(in, key, BUS_STATUS_INVALID, "%slonger than %zu bytes", what, max);
        return NULL;
    }
    if (memchr(ptr, 0, len)) {
        s_fail(in, key, BUS_STATUS_INVALID, "%scontains a NUL byte", what);
        return NULL;
    }
    char *copy = s_alloc(in, key, len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, ptr, len);
    copy[len] = 0;
    return copy;
}

//  The array under key with at most max items, or NULL (absent or failed).
static const bus_value_t *
s_find_array(proto_in_t *in, const char *key, int flags, size_t max, const char *of)
{
    const bus_value_t *value = s_find(in, key, flags);
    if (!value)
        return NULL;
    if (bus_value_type(value) != BUS_VALUE_ARRAY) {
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected array of %s", of);
        return NULL;
    }
    if (bus_value_count(value) > max) {
        s_fail(in, key, BUS_STATUS_INVALID, "more than %zu items", max);
        return NULL;
    }
    return value;
}

void
proto_read_str(proto_in_t *in, const char *key, int flags, size_t max, const char **out)
{
    const bus_value_t *value = s_find(in, key, flags);
    char *copy = value ? s_copy_str(in, key, "", value, max) : NULL;
    if (copy)
        *out = copy;
}

void
proto_read_bytes(proto_in_t *in,
                 const char *key,
                 int flags,
                 size_t max,
                 const uint8_t **out,
                 size_t *size)
{
    const bus_value_t *value = s_find(in, key, flags);
    const void *ptr;
    size_t len;
    if (!value)
        return;
    if (!bus_value_get_bin(value, &ptr, &len)) {
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected bin");
        return;
    }
    if (len > max) {
        s_fail(in, key, BUS_STATUS_INVALID, "longer than %zu bytes", max);
        return;
    }
    //  The arena never returns NULL for 0 bytes: present-but-empty is not NULL.
    uint8_t *copy = s_alloc(in, key, len);
    if (!copy)
        return;
    memcpy(copy, ptr, len);
    *out = copy;
    *size = len;
}

void
proto_read_uuid(proto_in_t *in, const char *key, int flags, uint8_t *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    const void *ptr;
    size_t len;
    if (!value)
        return;
    if (!bus_value_get_bin(value, &ptr, &len) || len != PROTO_UUID_SIZE)
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected uuid (bin of 16 bytes)");
    else
        memcpy(out, ptr, PROTO_UUID_SIZE);
}

void
proto_read_int(
    proto_in_t *in, const char *key, int flags, int64_t min, int64_t max, int64_t *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    int64_t number;
    if (!value)
        return;
    if (!bus_value_get_int(value, &number)) {
        if (bus_value_type(value) == BUS_VALUE_UINT)
            s_fail(in, key, BUS_STATUS_INVALID, "above the maximum %" PRId64, max);
        else
            s_fail(in, key, BUS_STATUS_PROTOCOL, "expected int");
    } else if (number < min)
        s_fail(in, key, BUS_STATUS_INVALID, "below the minimum %" PRId64, min);
    else if (number > max)
        s_fail(in, key, BUS_STATUS_INVALID, "above the maximum %" PRId64, max);
    else
        *out = number;
}

void
proto_read_uint(proto_in_t *in, const char *key, int flags, uint64_t max, uint64_t *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    uint64_t number;
    if (!value)
        return;
    if (!bus_value_get_uint(value, &number))
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected uint");
    else if (number > max)
        s_fail(in, key, BUS_STATUS_INVALID, "above the maximum %" PRIu64, max);
    else
        *out = number;
}

void
proto_read_bool(proto_in_t *in, const char *key, int flags, bool *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    if (value && !bus_value_get_bool(value, out))
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected bool");
}

void
proto_read_double(proto_in_t *in, const char *key, int flags, double *out)
{
    const bus_value_t *value = s_find(in, key, flags);
    if (value && !bus_value_get_double(value, out))
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected double");
}

const char *const *
proto_read_strs(proto_in_t *in, const char *key, int flags, size_t max, size_t *count)
{
    const bus_value_t *array = s_find_array(in, key, flags, max, "strings");
    uint32_t items = bus_value_count(array);
    *count = 0;
    if (items == 0)
        return NULL;
    const char **copy = s_alloc(in, key, items * sizeof *copy);
    if (!copy)
        return NULL;
    for (uint32_t i = 0; i < items; i++) {
        char what[PROTO_PATH_MAX];
        snprintf(what, sizeof what, "item %" PRIu32 ": ", i);
        copy[i] =
            s_copy_str(in, key, what, bus_value_array_at(array, i), PROTO_UNLIMITED);
        if (!copy[i])
            return NULL; //  the arena keeps what was copied until the clear
    }
    *count = items;
    return copy;
}

const proto_kv_t *
proto_read_map(proto_in_t *in, const char *key, int flags, size_t max, size_t *count)
{
    const bus_value_t *map = s_find(in, key, flags);
    *count = 0;
    if (!map)
        return NULL;
    if (bus_value_type(map) != BUS_VALUE_MAP) {
        s_fail(in, key, BUS_STATUS_PROTOCOL, "expected map of strings");
        return NULL;
    }
    uint32_t pairs = bus_value_count(map);
    if (pairs > max) {
        s_fail(in, key, BUS_STATUS_INVALID, "more than %zu pairs", max);
        return NULL;
    }
    if (pairs == 0)
        return NULL;
    proto_kv_t *copy = s_alloc(in, key, pairs * sizeof *copy);
    if (!copy)
        return NULL;
    for (uint32_t i = 0; i < pairs; i++) {
        char what[PROTO_PATH_MAX];
        snprintf(what, sizeof what, "pair %" PRIu32 ": ", i);
        copy[i].key =
            s_copy_str(in, key, what, bus_value_map_key(map, i), PROTO_UNLIMITED);
        copy[i].value =
            s_copy_str(in, key, what, bus_value_map_value(map, i), PROTO_UNLIMITED);
        if (!copy[i].key || !copy[i].value)
            return NULL; //  the arena keeps what was copied until the clear
    }
    *count = pairs;
    return copy;
}

//  Prepares sub to read value, the map at key (or key[index]) inside in.
static bool
s_enter(proto_in_t *in,
        proto_in_t *sub,
        const bus_value_t *value,
        const char *key,
        const char *index)
{
    char name[PROTO_PATH_MAX];
    snprintf(name, sizeof name, "%s%s", key, index);
    if (bus_value_type(value) != BUS_VALUE_MAP) {
        s_fail(in, name, BUS_STATUS_PROTOCOL, "expected map");
        return false;
    }
    memset(sub, 0, sizeof *sub);
    sub->map = value;
    sub->message = in->message;
    sub->err = in->err;
    sub->parent = in;
    sub->owned = in->owned;
    int length = snprintf(sub->path, sizeof sub->path, "%s%s.", in->path, name);
    if (length < 0 || (size_t) length >= sizeof sub->path)
        sub->path[sizeof sub->path - 1] = 0; //  a truncated path still helps
    return true;
}

void *
proto_read_list(proto_in_t *in,
                const char *key,
                int flags,
                size_t max,
                size_t item_size,
                proto_read_fn *read,
                size_t *count)
{
    const bus_value_t *array = s_find_array(in, key, flags, max, "maps");
    uint32_t items = bus_value_count(array);
    *count = 0;
    if (items == 0)
        return NULL;
    if (item_size > SIZE_MAX / items) {
        s_fail(in, key, BUS_STATUS_INTERNAL, "out of memory");
        return NULL;
    }
    uint8_t *list = s_alloc(in, key, items * item_size);
    if (!list)
        return NULL;
    memset(list, 0, items * item_size);
    for (uint32_t i = 0; i < items && in->status == BUS_OK; i++) {
        char index[PROTO_PATH_MAX];
        proto_in_t sub;
        snprintf(index, sizeof index, "[%" PRIu32 "]", i);
        if (!s_enter(in, &sub, bus_value_array_at(array, i), key, index))
            break;
        *count = i + 1;
        read(list + i * item_size, &sub);
    }
    return list;
}

bool
proto_read_nested(proto_in_t *in, const char *key, int flags, proto_in_t *sub)
{
    const bus_value_t *value = s_find(in, key, flags);
    return value && s_enter(in, sub, value, key, "");
}

//  ---------------------------------------------------------------------------
//  Checks before writing

void
proto_check_init(proto_check_t *self, const char *message, bus_error_t *err)
{
    assert(self);
    assert(message);
    self->message = message;
    self->path[0] = 0;
    self->err = err;
    if (err) {
        err->status = BUS_OK;
        err->detail[0] = 0;
    }
}

void
proto_check_enter(proto_check_t *self, proto_check_t *sub, const char *key, size_t index)
{
    sub->message = self->message;
    sub->err = self->err;
    int length = index == PROTO_NO_INDEX
                     ? snprintf(sub->path, sizeof sub->path, "%s%s.", self->path, key)
                     : snprintf(sub->path, sizeof sub->path, "%s%s[%zu].", self->path,
                                key, index);
    if (length < 0 || (size_t) length >= sizeof sub->path)
        sub->path[sizeof sub->path - 1] = 0; //  a truncated path still helps
}

static bool s_refuse(proto_check_t *self, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

//  Sets err (when there is one) and answers false.
static bool
s_refuse(proto_check_t *self, const char *key, const char *fmt, ...)
{
    if (!self->err)
        return false;
    char reason[BUS_ERROR_DETAIL_MAX];
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, sizeof reason, fmt, args);
    va_end(args);
    bus_error_set(self->err, BUS_STATUS_INVALID, "%s: field '%s%s': %s", self->message,
                  self->path, key, reason);
    return false;
}

bool
proto_check_str(
    proto_check_t *self, const char *key, const char *value, int flags, size_t max)
{
    if (!value)
        return !(flags & PROTO_REQUIRED) || s_refuse(self, key, "missing");
    size_t len = strlen(value);
    if (len > max || len > UINT32_MAX)
        return s_refuse(self, key, "%zu bytes, at most %zu", len,
                        max < UINT32_MAX ? max : (size_t) UINT32_MAX);
    return true;
}

bool
proto_check_bytes(proto_check_t *self,
                  const char *key,
                  const uint8_t *data,
                  size_t size,
                  int flags,
                  size_t max)
{
    if (!data)
        return !(flags & PROTO_REQUIRED) || s_refuse(self, key, "missing");
    if (size > max || size > UINT32_MAX)
        return s_refuse(self, key, "%zu bytes, at most %zu", size,
                        max < UINT32_MAX ? max : (size_t) UINT32_MAX);
    return true;
}

bool
proto_check_count(
    proto_check_t *self, const char *key, const void *items, size_t count, size_t max)
{
    if (count > max || count > UINT32_MAX)
        return s_refuse(self, key, "%zu items, at most %zu", count,
                        max < UINT32_MAX ? max : (size_t) UINT32_MAX);
    if (!items && count > 0)
        return s_refuse(self, key, "%zu items but no array", count);
    return true;
}

bool
proto_check_strs(proto_check_t *self,
                 const char *key,
                 const char *const *items,
                 size_t count,
                 size_t max)
{
    if (!proto_check_count(self, key, items, count, max))
        return false;
    for (size_t i = 0; i < count; i++) {
        if (!items[i])
            return s_refuse(self, key, "item %zu: missing", i);
        if (strlen(items[i]) > UINT32_MAX)
            return s_refuse(self, key, "item %zu: longer than %" PRIu32 " bytes", i,
                            UINT32_MAX);
    }
    return true;
}

bool
proto_check_map(proto_check_t *self,
                const char *key,
                const proto_kv_t *pairs,
                size_t count,
                size_t max)
{
    if (count > max || count > UINT32_MAX)
        return s_refuse(self, key, "%zu pairs, at most %zu", count,
                        max < UINT32_MAX ? max : (size_t) UINT32_MAX);
    if (!pairs && count > 0)
        return s_refuse(self, key, "%zu pairs but no array", count);
    for (size_t i = 0; i < count; i++) {
        if (!pairs[i].key || !pairs[i].value)
            return s_refuse(self, key, "pair %zu: missing %s", i,
                            pairs[i].key ? "value" : "key");
        if (strlen(pairs[i].key) > UINT32_MAX || strlen(pairs[i].value) > UINT32_MAX)
            return s_refuse(self, key, "pair %zu: longer than %" PRIu32 " bytes", i,
                            UINT32_MAX);
    }
    return true;
}

bool
proto_check_int(
    proto_check_t *self, const char *key, int64_t value, int64_t min, int64_t max)
{
    if (value < min)
        return s_refuse(self, key, "%" PRId64 ", at least %" PRId64, value, min);
    if (value > max)
        return s_refuse(self, key, "%" PRId64 ", at most %" PRId64, value, max);
    return true;
}

bool
proto_check_uint(proto_check_t *self, const char *key, uint64_t value, uint64_t max)
{
    if (value > max)
        return s_refuse(self, key, "%" PRIu64 ", at most %" PRIu64, value, max);
    return true;
}

//  ---------------------------------------------------------------------------
//  Writing

void
proto_write_str(bus_writer_t *writer, const char *key, const char *value)
{
    bus_writer_str(writer, key);
    bus_writer_str(writer, value);
}

void
proto_write_bytes(bus_writer_t *writer, const char *key, const uint8_t *data, size_t size)
{
    bus_writer_str(writer, key);
    bus_writer_bin(writer, data, size);
}

void
proto_write_uuid(bus_writer_t *writer, const char *key, const uint8_t *uuid)
{
    bus_writer_str(writer, key);
    bus_writer_bin(writer, uuid, PROTO_UUID_SIZE);
}

void
proto_write_int(bus_writer_t *writer, const char *key, int64_t value)
{
    bus_writer_str(writer, key);
    bus_writer_int(writer, value);
}

void
proto_write_uint(bus_writer_t *writer, const char *key, uint64_t value)
{
    bus_writer_str(writer, key);
    bus_writer_uint(writer, value);
}

void
proto_write_bool(bus_writer_t *writer, const char *key, bool value)
{
    bus_writer_str(writer, key);
    bus_writer_bool(writer, value);
}

void
proto_write_double(bus_writer_t *writer, const char *key, double value)
{
    bus_writer_str(writer, key);
    bus_writer_double(writer, value);
}

void
proto_write_strs(bus_writer_t *writer,
                 const char *key,
                 const char *const *items,
                 size_t count)
{
    bus_writer_str(writer, key);
    bus_writer_array(writer, (uint32_t) count);
    for (size_t i = 0; i < count; i++)
        bus_writer_str(writer, items[i]);
}

void
proto_write_map(bus_writer_t *writer,
                const char *key,
                const proto_kv_t *pairs,
                size_t count)
{
    bus_writer_str(writer, key);
    bus_writer_map(writer, (uint32_t) count);
    for (size_t i = 0; i < count; i++) {
        bus_writer_str(writer, pairs[i].key);
        bus_writer_str(writer, pairs[i].value);
    }
}

void
proto_write_array(bus_writer_t *writer, const char *key, size_t count)
{
    bus_writer_str(writer, key);
    bus_writer_array(writer, (uint32_t) count);
}

//  ---------------------------------------------------------------------------
//  Printing

void
proto_text_init(proto_text_t *self)
{
    assert(self);
    memset(self, 0, sizeof *self);
}

char *
proto_text_finish(proto_text_t *self)
{
    assert(self);
    char *line = self->data;
    if (!self->failed && !line)
        line = strdup("");
    if (self->failed) {
        free(line);
        line = NULL;
    }
    self->data = NULL;
    return line;
}

size_t
proto_text_enter(proto_text_t *self, const char *key)
{
    size_t mark = strlen(self->prefix);
    snprintf(self->prefix + mark, sizeof self->prefix - mark, "%s.", key);
    return mark;
}

void
proto_text_leave(proto_text_t *self, size_t mark)
{
    if (mark < sizeof self->prefix)
        self->prefix[mark] = 0;
}

static void
s_append(proto_text_t *self, const char *data, size_t len)
{
    if (self->failed)
        return;
    if (self->size + len + 1 > self->allocated) {
        size_t want = self->allocated ? self->allocated * 2 : 128;
        while (want < self->size + len + 1)
            want *= 2;
        char *grown = realloc(self->data, want);
        if (!grown) {
            self->failed = true;
            return;
        }
        self->data = grown;
        self->allocated = want;
    }
    memcpy(self->data + self->size, data, len);
    self->size += len;
    self->data[self->size] = 0;
}

static void s_appendf(proto_text_t *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
s_appendf(proto_text_t *self, const char *fmt, ...)
{
    char buffer[64];
    va_list args;
    va_start(args, fmt);
    int len = vsnprintf(buffer, sizeof buffer, fmt, args);
    va_end(args);
    if (len >= 0)
        s_append(self, buffer,
                 (size_t) len < sizeof buffer ? (size_t) len : sizeof buffer - 1);
}

//  " key=" (no space before the first pair), with the nested-value prefix.
static void
s_key(proto_text_t *self, const char *key)
{
    if (self->size > 0)
        s_append(self, " ", 1);
    s_append(self, self->prefix, strlen(self->prefix));
    s_append(self, key, strlen(key));
    s_append(self, "=", 1);
}

//  A logfmt value: bare when it can be, else quoted with \" \\ \n \r \t \xNN.
static void
s_value(proto_text_t *self, const char *value)
{
    bool bare = *value != 0;
    for (const char *p = value; *p && bare; p++)
        if ((unsigned char) *p <= ' ' || *p == '"' || *p == '=' || *p == '\\' ||
            *p == 0x7f)
            bare = false;
    if (bare) {
        s_append(self, value, strlen(value));
        return;
    }
    s_append(self, "\"", 1);
    for (const char *p = value; *p; p++) {
        unsigned char c = (unsigned char) *p;
        if (c == '"' || c == '\\')
            s_appendf(self, "\\%c", c);
        else if (c == '\n')
            s_append(self, "\\n", 2);
        else if (c == '\r')
            s_append(self, "\\r", 2);
        else if (c == '\t')
            s_append(self, "\\t", 2);
        else if (c < ' ' || c == 0x7f)
            s_appendf(self, "\\x%02x", c);
        else
            s_append(self, p, 1);
    }
    s_append(self, "\"", 1);
}

void
proto_print_str(proto_text_t *text, const char *key, const char *value)
{
    if (!value)
        return;
    s_key(text, key);
    s_value(text, value);
}

void
proto_print_bytes(proto_text_t *text, const char *key, const uint8_t *data, size_t size)
{
    if (!data)
        return;
    s_key(text, key);
    s_appendf(text, "<%zu bytes>", size);
}

void
proto_print_uuid(proto_text_t *text, const char *key, const uint8_t *uuid)
{
    s_key(text, key);
    for (int i = 0; i < PROTO_UUID_SIZE; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            s_append(text, "-", 1);
        s_appendf(text, "%02x", uuid[i]);
    }
}

void
proto_print_int(proto_text_t *text, const char *key, int64_t value)
{
    s_key(text, key);
    s_appendf(text, "%" PRId64, value);
}

void
proto_print_uint(proto_text_t *text, const char *key, uint64_t value)
{
    s_key(text, key);
    s_appendf(text, "%" PRIu64, value);
}

void
proto_print_bool(proto_text_t *text, const char *key, bool value)
{
    s_key(text, key);
    s_append(text, value ? "true" : "false", value ? 4 : 5);
}

void
proto_print_double(proto_text_t *text, const char *key, double value)
{
    //  The shortest form that reads back as the same double.
    char buffer[64];
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (strtod(buffer, NULL) == value)
            break;
    }
    s_key(text, key);
    s_append(text, buffer, strlen(buffer));
}

void
proto_print_count(proto_text_t *text, const char *key, size_t count)
{
    if (count == 0)
        return;
    s_key(text, key);
    s_appendf(text, "[%zu]", count);
}

void
proto_print_redacted(proto_text_t *text, const char *key)
{
    s_key(text, key);
    s_append(text, "[redacted]", 10);
}

//  ---------------------------------------------------------------------------
//  Registry adapters, one set per entry: decode into a stack struct, use it,
//  clear it.

static const void *
s_frame_data(zframe_t *frame)
{
    return frame ? zframe_data(frame) : NULL;
}

static size_t
s_frame_size(zframe_t *frame)
{
    return frame ? zframe_size(frame) : 0;
}

//  0 when both prints and both encodings exist and are equal. Frees them all.
static int
s_same(char *text_one, char *text_two, zframe_t **one_p, zframe_t **two_p)
{
    int rc = text_one && text_two && *one_p && *two_p &&
                     strcmp(text_one, text_two) == 0 && zframe_eq(*one_p, *two_p)
                 ? 0
                 : -1;
    free(text_one);
    free(text_two);
    zframe_destroy(one_p);
    zframe_destroy(two_p);
    return rc;
}
"""


def gen_proto_h(domains):
    lines = ["//  GENERATED FROM proto/*.yaml BY proto/gen.py - DO NOT EDIT"]
    lines.append("/*  " + "=" * 73)
    lines.extend("    " + line for line in wrap_text(PROTO_H_INTRO[0], 74))
    lines.append("")
    lines.extend("    " + line for line in wrap_text(PROTO_H_INTRO[1], 74))
    lines.append(PROTO_H_API)
    lines.append("")
    lines.extend(
        "    " + line
        for line in wrap_text(
            "A proto_<domain>.h per schema declares them, with a PROTO_<DOMAIN>_<NAME> "
            "macro per topic and method. Encoders write every field that is set and "
            "leave out NULL strings and bytes and empty arrays; secret fields print as "
            "[redacted].",
            74,
        )
    )
    lines.append("")
    lines.append("    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.")
    lines.append("    " + "=" * 73)
    lines.append("*/")
    text = "\n".join(lines) + "\n" + PROTO_H_REST
    text += "".join('#include "%s.h"\n' % d.stem for d in domains)
    text += "\n" + PROTO_H_REGISTRY
    return text


def gen_proto_c(domains, entries):
    o = Out()
    o.add(
        banner(
            "proto/*.yaml",
            "proto - the registry of every event, request and reply, and the runtime "
            "the generated codecs share",
            [
                "The runtime reads with a sticky status: the first failure stays in "
                "the proto_in_t and later reads do nothing, so a generated reader is a "
                "flat list of calls. Printing builds one logfmt line. The registry "
                "adapters at the end decode into a struct on the stack, so that "
                "logging, validation and the fuzzer can handle any message by name."
            ],
        )
    )
    o.add('#include "bus_classes.h"')
    o.add(PROTO_C_RUNTIME.rstrip("\n"))
    I = "    "
    for e in entries:
        s = e.struct
        base = "s_" + s.cname
        t = s.ctype
        o.add("")
        o.add(signature("static int", base + "_validate",
                        ["const void *data", "size_t size", "bus_error_t *err"], True))
        o.add("{", I + "%s msg;" % t)
        o.add(call(I, "int rc = %s(" % s.fn("decode"), ["&msg", "data", "size", "err"]))
        o.add(I + "%s(&msg);" % s.fn("clear"), I + "return rc;", "}", "")
        o.add(signature("static char *", base + "_print", ["const void *data", "size_t size"], True))
        o.add("{", I + "%s msg;" % t, I + "char *text = NULL;")
        o.add(call(I, "if (%s(" % s.fn("decode"), ["&msg", "data", "size", "NULL"], ") == BUS_OK)"))
        o.add(I + I + "text = %s(&msg);" % s.fn("print"))
        o.add(I + "%s(&msg);" % s.fn("clear"), I + "return text;", "}", "")
        o.add(signature("static int", base + "_roundtrip", ["const void *data", "size_t size"], True))
        o.add("{", I + "%s one, two;" % t)
        o.add(call(I, "if (%s(" % s.fn("decode"), ["&one", "data", "size", "NULL"], ") != BUS_OK)"))
        o.add(I + I + "return 0;")
        o.add(I + "zframe_t *first = %s(&one);" % s.fn("encode"))
        o.add(
            call(I, "%s(" % s.fn("decode"),
                 ["&two", "s_frame_data(first)", "s_frame_size(first)", "NULL"])
        )
        o.add(I + "zframe_t *second = %s(&two);" % s.fn("encode"))
        o.add(I + "char *text_one = %s(&one);" % s.fn("print"))
        o.add(I + "char *text_two = %s(&two);" % s.fn("print"))
        o.add(I + "int rc = s_same(text_one, text_two, &first, &second);")
        o.add(I + "%s(&one);" % s.fn("clear"), I + "%s(&two);" % s.fn("clear"))
        o.add(I + "return rc;", "}")
    o.rule("The table, in schema order: proto/*.yaml sorted, events then methods.")
    o.add("const proto_entry_t proto_entries[] = {")
    for e in entries:
        s = e.struct
        base = "s_" + s.cname
        o.add(I + "{", I + I + '.name = "%s",' % s.name, I + I + ".kind = %s," % e.kind)
        if e.kind == "PROTO_EVENT":
            if s.broadcast:
                o.add(I + I + ".broadcast = true,")
            if s.durable:
                o.add(I + I + ".durable = true,")
        elif s.idempotent:
            o.add(I + I + ".idempotent = true,")
        o.add(I + I + ".validate = %s_validate," % base)
        o.add(I + I + ".print = %s_print," % base)
        o.add(I + I + ".roundtrip = %s_roundtrip," % base)
        o.add(I + "},")
    o.add("};", "", "const size_t proto_entry_count = sizeof proto_entries / sizeof proto_entries[0];")
    return o.text()


# ---------------------------------------------------------------------------
# proto_serve.[ch]: a typed handler per method, and the adapter that calls it


SERVE_PARAMS = [
    "bus_typed_fn *fn",
    "void *arg",
    "bus_rpc_request_t *req",
    "const void *body",
    "size_t body_size",
    "bus_writer_t *reply",
    "bus_error_t *err",
]


def method_base(m):
    """proto_<domain>_<method> of a method, its structs' common prefix."""
    return "proto_" + m.request.cname[: -len("_req")]


def gen_serve_h(domains):
    o = Out()
    o.add(
        banner(
            "proto/*.yaml",
            "proto_serve - a typed handler for every RPC method",
            [
                "For each method M: proto_M_fn, the handler a service writes, which "
                "gets the request decoded and checked (in) and the reply initialised "
                "(out), and holds only its logic; proto_M_serve, the adapter that "
                "decodes, calls it and encodes; and proto_M_method(handler), the row "
                "of a service's table of methods for bus_node_serve.",
                "A handler returns BUS_OK with out filled (it is then checked against "
                "the schema and encoded), an error status with err set, or "
                "BUS_STATUS_PENDING_ after bus_rpc_request_detach(req) to answer "
                "later. out is encoded after the handler has returned: what it points "
                "to must outlive the call (the service's own state, in, string "
                "literals), or be copied into out->owned_ with proto_arena_strdup and "
                "its kin, which the adapter frees with out.",
            ],
        )
    )
    o.add("#ifndef PROTO_SERVE_H_INCLUDED", "#define PROTO_SERVE_H_INCLUDED")
    for d in domains:
        for m in d.methods:
            base = method_base(m)
            o.rule("%s: %s" % (m.name, m.doc) if m.doc else m.name)
            params = [
                "void *arg",
                "const %s *in" % m.request.ctype,
                "%s *out" % m.reply.ctype,
                "bus_rpc_request_t *req",
                "bus_error_t *err",
            ]
            o.add(signature("typedef int", "(%s_fn)" % base, params, False))
            o.add(signature("int", base + "_serve", SERVE_PARAMS, False))
            o.add("static inline bus_node_method_t")
            o.add("%s_method(%s_fn *fn)" % (base, base))
            o.add("{")
            macro = "PROTO_" + m.name.upper().replace(".", "_")
            o.add(
                call(
                    "    ",
                    "return (bus_node_method_t){",
                    [macro, "NULL", "(bus_typed_fn *) fn", base + "_serve"],
                    "};",
                )
            )
            o.add("}")
    o.blank()
    o.add("#endif")
    return o.text()


SERVE_C_PRELUDE = """\
//  A reply that could not be written: checked is what its check said. One
//  its handler filled against the schema is the service's fault, not its
//  caller's, so it is logged and answered as internal.
static int
s_bad_reply(int checked, bus_error_t *err)
{
    if (checked == BUS_OK)
        return bus_error_set(err, BUS_STATUS_INTERNAL, "out of memory");
    bus_log_error("reply refused by its schema: %s", err->detail);
    err->status = BUS_STATUS_INTERNAL;
    return BUS_STATUS_INTERNAL;
}
"""


def gen_serve_c(domains):
    o = Out()
    o.add(
        banner(
            "proto/*.yaml",
            "proto_serve - the adapters of the typed handlers",
            ["One per method, as proto_serve.h describes them."],
        )
    )
    o.add('#include "bus_classes.h"', "")
    o.add(SERVE_C_PRELUDE.rstrip("\n"))
    I = "    "
    for d in domains:
        for m in d.methods:
            base = method_base(m)
            rq, rp = m.request, m.reply
            o.add("")
            o.add(signature("int", base + "_serve", SERVE_PARAMS, True))
            o.add("{", I + "%s in;" % rq.ctype)
            o.add(call(I, "int rc = %s(" % rq.fn("decode"), ["&in", "body", "body_size", "err"]))
            o.add(I + "if (rc != BUS_OK)", I + I + "return rc;")
            o.add(I + "%s out;" % rp.ctype, I + "%s(&out);" % rp.fn("init"))
            o.add(I + "rc = ((%s_fn *) fn)(arg, &in, &out, req, err);" % base)
            o.add(I + "if (rc == BUS_OK && %s(&out, reply) != 0)" % rp.fn("write"))
            o.add(I + I + "rc = s_bad_reply(%s(&out, err), err);" % rp.fn("check"))
            o.add(I + "%s(&out);" % rp.fn("clear"), I + "%s(&in);" % rq.fn("clear"))
            o.add(I + "return rc;", "}")
    return o.text()


# ---------------------------------------------------------------------------
# Fuzz seeds: one valid message per registry entry, prefixed with its index.


def msgpack(value):
    """Just enough msgpack for the seeds (smallest forms, like msgpack-c)."""
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if 0 <= value <= 0x7F:
            return bytes([value])
        if -32 <= value < 0:
            return struct.pack("b", value)
        if value >= 0:
            for tag, fmt, limit in ((0xCC, ">B", 2**8), (0xCD, ">H", 2**16), (0xCE, ">I", 2**32)):
                if value < limit:
                    return bytes([tag]) + struct.pack(fmt, value)
            return b"\xcf" + struct.pack(">Q", value)
        for tag, fmt, limit in ((0xD0, ">b", 2**7), (0xD1, ">h", 2**15), (0xD2, ">i", 2**31)):
            if value >= -limit:
                return bytes([tag]) + struct.pack(fmt, value)
        return b"\xd3" + struct.pack(">q", value)
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        raw = value.encode()
        n = len(raw)
        if n < 32:
            return bytes([0xA0 | n]) + raw
        if n < 2**8:
            return b"\xd9" + struct.pack(">B", n) + raw
        if n < 2**16:
            return b"\xda" + struct.pack(">H", n) + raw
        return b"\xdb" + struct.pack(">I", n) + raw
    if isinstance(value, bytes):
        n = len(value)
        if n < 2**8:
            return b"\xc4" + struct.pack(">B", n) + value
        if n < 2**16:
            return b"\xc5" + struct.pack(">H", n) + value
        return b"\xc6" + struct.pack(">I", n) + value
    if isinstance(value, list):
        n = len(value)
        head = bytes([0x90 | n]) if n < 16 else (b"\xdc" + struct.pack(">H", n))
        return head + b"".join(msgpack(v) for v in value)
    if isinstance(value, dict):
        n = len(value)
        head = bytes([0x80 | n]) if n < 16 else (b"\xde" + struct.pack(">H", n))
        return head + b"".join(msgpack(k) + msgpack(v) for k, v in value.items())
    raise TypeError(value)


def sample(s):
    """A valid value for every field of s, within its limits."""
    out = {}
    for f in s.fields:
        t = f.type
        cap = f.max if f.max is not None else None
        if t == "string":
            value = ("%s-1" % f.name)[: cap if cap is not None else None]
        elif t == "bytes":
            value = b"\x00\x01\x02\xff"[: cap if cap is not None else None]
        elif t == "uuid":
            value = bytes(range(0x10, 0x20))
        elif t == "int":
            value = max(f.min if f.min is not None else INT64_MIN, -5)
            value = min(f.max if f.max is not None else INT64_MAX, value)
        elif t == "time":
            value = 1700000000000000
        elif t == "uint":
            value = min(42, f.max) if f.max is not None else 42
        elif t == "bool":
            value = True
        elif t == "double":
            value = 1.5
        elif t == "strings":
            value = ["a", "b c"][: cap if cap is not None else None]
        elif t == "map":
            value = dict(list({"k1": "v1", "k2": "v 2"}.items())[: cap if cap is not None else None])
        elif t == "list":
            value = [sample(f.of), sample(f.of)][: cap if cap is not None else None]
        else:
            value = sample(f.struct)
        out[f.name] = value
    return out


# ---------------------------------------------------------------------------


def write_file(path, data, changed):
    if isinstance(data, str):
        data = data.encode()
    try:
        with open(path, "rb") as stream:
            if stream.read() == data:
                return
    except FileNotFoundError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "wb") as stream:
        stream.write(data)
    os.replace(tmp, path)
    changed.append(path)


def main():
    parser = argparse.ArgumentParser(description="Generate libbus/proto*.[ch] from proto/*.yaml")
    parser.add_argument("--out", required=True, help="directory for the C files (libbus)")
    parser.add_argument("--fuzz-corpus", help="corpus root; seeds go to <dir>/fuzz_proto")
    parser.add_argument("--schemas", default=HERE, help="directory of the *.yaml schemas")
    args = parser.parse_args()
    try:
        domains, entries = load(args.schemas)
    except SchemaError as e:
        print(e, file=sys.stderr)
        return 1
    files = {}
    for d in domains:
        files[d.stem + ".h"] = gen_domain_h(d)
        files[d.stem + ".c"] = gen_domain_c(d)
    files["proto.h"] = gen_proto_h(domains)
    files["proto.c"] = gen_proto_c(domains, entries)
    files["proto_serve.h"] = gen_serve_h(domains)
    files["proto_serve.c"] = gen_serve_c(domains)
    changed = []
    os.makedirs(args.out, exist_ok=True)
    for name in sorted(files):
        write_file(os.path.join(args.out, name), files[name], changed)
    if args.fuzz_corpus:
        seeds = os.path.join(args.fuzz_corpus, "fuzz_proto")
        os.makedirs(seeds, exist_ok=True)
        for index, e in enumerate(entries):
            data = bytes([index]) + msgpack(sample(e.struct))
            write_file(os.path.join(seeds, e.seed + ".bin"), data, changed)
    for path in changed:
        print("  GEN     %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
