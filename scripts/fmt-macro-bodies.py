#!/usr/bin/env python3
"""rustfmt for the bodies of `both_backends!` calls, which `cargo fmt` does not reach.

rustfmt leaves the inside of a brace- or parenthesis-delimited macro call as written, so the
shared SQL bodies (citizen-api's store/sql/, platform-messages' store/sql.rs, streets-api's
store/shared.rs; about 3 800 lines) would pass `cargo fmt --check` however they were formatted.
This script gives each body to rustfmt as the file of items it is: the lines between

    both_backends! {                       service_kit::both_backends!(A, B;
        [A, B;]                            <items>
        <items, indented by 4>             );
    }

are dedented by the body's indentation, formatted with `max_width` reduced by it (the other
widths kept at rustfmt's defaults for a width of 100, as rustfmt counts them from the
indentation), and indented back.

    scripts/fmt-macro-bodies.py --check   # CI (`make lint`): fails, with a diff, on any change
    scripts/fmt-macro-bodies.py           # `make fmt`: rewrites the bodies in place
    scripts/fmt-macro-bodies.py --self-test
        # proves the check on planted copies: a mis-formatted line fails it, a formatted body
        # passes, and an unterminated call is reported rather than skipped.
"""

import difflib
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
OPENER = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*::)*both_backends!\s*([{(])(.*)$")
HEADER = re.compile(r"^\s+[A-Za-z0-9_:]+\s*,\s*[A-Za-z0-9_:]+\s*;\s*$")
MAX_WIDTH = 100
# rustfmt's "Default" small heuristics for max_width = 100, pinned so that a narrower
# max_width for an indented body does not narrow them too (as they would in a nested block).
WIDTHS = {
    "fn_call_width": 60,
    "attr_fn_like_width": 70,
    "struct_lit_width": 18,
    "struct_variant_width": 35,
    "array_width": 60,
    "chain_width": 60,
    "single_line_if_else_max_width": 50,
    "single_line_let_else_max_width": 50,
}


class BodyError(Exception):
    pass


def bodies(lines):
    """(first, end, indent) of each macro body: lines[first:end] are its items."""
    i = 0
    while i < len(lines):
        m = OPENER.match(lines[i])
        if not m:
            i += 1
            continue
        brace, rest = m.group(1), m.group(2)
        closing = "}" if brace == "{" else ");"
        first = i + 1
        if brace == "{" and not rest.strip() and first < len(lines) and HEADER.match(lines[first]):
            first += 1
        end = first
        while end < len(lines) and lines[end].rstrip("\n") != closing:
            end += 1
        if end == len(lines):
            raise BodyError(f"line {i + 1}: no `{closing}` at the start of a line ends this call")
        body = [l for l in lines[first:end] if l.strip()]
        indent = min((len(l) - len(l.lstrip(" ")) for l in body), default=0)
        yield first, end, indent
        i = end + 1


def rustfmt(text, width):
    config = ",".join([f"max_width={width}"] + [f"{k}={v}" for k, v in WIDTHS.items()])
    done = subprocess.run(
        ["rustfmt", "--edition", "2021", "--emit", "stdout", "--quiet", "--config", config],
        input=text,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BodyError(done.stderr.strip() or "rustfmt failed")
    return done.stdout


def formatted(source):
    """The file's text with every body formatted."""
    lines = source.splitlines(keepends=True)
    out, last = [], 0
    for first, end, indent in bodies(lines):
        pad = " " * indent
        body = "".join(l[indent:] if l.strip() else "\n" for l in lines[first:end])
        new = rustfmt(body, MAX_WIDTH - indent)
        out += lines[last:first]
        out += [pad + l if l.strip() else l for l in new.splitlines(keepends=True)]
        last = end
    out += lines[last:]
    return "".join(out)


def files():
    found = subprocess.run(
        ["git", "-C", str(ROOT), "grep", "-lE", r"^([a-z_]+::)*both_backends!\s*[{(]", "--", "*.rs"],
        capture_output=True,
        text=True,
    )
    return [ROOT / p for p in found.stdout.split()]


def run(paths, check, show=True):
    bad = 0
    for path in paths:
        source = path.read_text()
        try:
            new = formatted(source)
        except BodyError as e:
            if show:
                print(f"{path}: {e}", file=sys.stderr)
            bad = 1
            continue
        if new == source:
            continue
        if check and not show:
            bad = 1
        elif check:
            name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
            sys.stdout.writelines(
                difflib.unified_diff(source.splitlines(True), new.splitlines(True), name, name)
            )
            bad = 1
        else:
            path.write_text(new)
    return bad


SAMPLE = """\
both_backends! {
    impl Backend {
        async fn count(&self) -> StoreResult<i64> {
            let sql = "SELECT COUNT(*) FROM reports";
            Ok(sqlx::query_scalar(sql).fetch_one(&self.pool).await?)
        }
    }
}
"""


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "sample.rs"
        cases = [
            ("a formatted body", SAMPLE, 0),
            ("a planted mis-formatting", SAMPLE.replace("(&self)", "( &self )"), 1),
            ("a line over the width", SAMPLE.replace("(sql)", "(sql.trim_start_matches(' ').trim_end_matches(' '))"), 1),
            ("an unterminated call", SAMPLE.rstrip("}\n") + "\n", 1),
        ]
        for what, text, want in cases:
            path.write_text(text)
            got = run([path], check=True, show=False)
            if got != want:
                print(f"fmt-macro-bodies self-test: {what} gave {got}, wanted {want}", file=sys.stderr)
                return 1
    print(f"fmt-macro-bodies: the check caught each of {len(cases) - 1} planted faults")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    check = "--check" in argv
    paths = files()
    if not paths:
        print("fmt-macro-bodies: no both_backends! calls found", file=sys.stderr)
        return 1
    bad = run(paths, check)
    if check and not bad:
        print(f"fmt-macro-bodies: {len(paths)} files' macro bodies are formatted")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
