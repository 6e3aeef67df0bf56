#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check, on built code, that every (instruction, width) of the probe runs its
own instruction form.

For each hardware loop (batch_rdrand16 ... batch_rdseed64) and each hardware
draw (draw_rdrand16 ...) of the x86-64 draw code, service/engine/sources/x86.c,
collect the rdrand/rdseed instructions reachable from the function through
direct calls, jumps and taken function addresses (at -O0 the instruction sits
in a helper called through a pointer), and require that the set is exactly
that width's register form. A function that is an
alias of another width's (identical code folding: `jmp batch_rdseed16`, or two
symbols at one address) therefore fails, and so does a missing function.

  check-binary.py FILE...              check built files (executable or .o)
  check-binary.py --matrix SRCDIR      compile service/engine/sources/x86.c with gcc
                                       and clang at -O0..-O3 and -Os and check each
                                       object

Exit 0 if every file passes, 1 otherwise (one line per problem)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

REG16 = {"ax", "bx", "cx", "dx", "si", "di", "bp", "sp"} | {f"r{i}w" for i in range(8, 16)}
REG32 = {"eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp"} | {f"r{i}d" for i in range(8, 16)}
REG64 = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp"} | {f"r{i}" for i in range(8, 16)}
WIDTH_OF = {**{r: 16 for r in REG16}, **{r: 32 for r in REG32}, **{r: 64 for r in REG64}}

FUNC_RE = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
INSN_RE = re.compile(r"^\s*[0-9a-f]+:\s+(?:[0-9a-f]{2} )*\s*(\S+)\s*(.*)$")
TARGET_RE = re.compile(r"<([^>+]+)(?:\+0x[0-9a-f]+)?>")
RELOC_RE = re.compile(r"^\s*[0-9a-f]+:\s+R_X86_64_\w+\s+([^\s+-]+)")


def disassemble(path):
    """{function: [(mnemonic, operands)]} and {function: address}."""
    out = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", "-M", "att", path],
                         capture_output=True, text=True, check=True).stdout
    funcs, addrs, cur = {}, {}, None
    for line in out.splitlines():
        m = FUNC_RE.match(line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            addrs[cur] = int(line.split()[0], 16)
            continue
        if cur is None:
            continue
        r = RELOC_RE.match(line)
        if r and funcs[cur]:
            # A relocation names the real target of the previous call/jmp.
            mn, ops = funcs[cur][-1]
            funcs[cur][-1] = (mn, f"{ops} <{r.group(1)}>")
            continue
        m = INSN_RE.match(line)
        if m:
            funcs[cur].append((m.group(1), m.group(2)))
    return funcs, addrs


def base(name):
    """batch_rdseed32.lto_priv.0 / .isra.0 / .constprop.0 -> batch_rdseed32."""
    return name.split(".")[0]


def forms(funcs, start, depth=4):
    """rdrand/rdseed forms (insn, width) reachable from start."""
    seen, todo, found = set(), [(start, 0)], set()
    by_base = {}
    for f in funcs:
        by_base.setdefault(base(f), []).append(f)
    while todo:
        f, d = todo.pop()
        if f in seen or f not in funcs:
            continue
        seen.add(f)
        for mn, ops in funcs[f]:
            if mn in ("rdrand", "rdseed"):
                reg = ops.strip().lstrip("%")
                found.add((mn, WIDTH_OF.get(reg, 0)))
            elif d < depth:
                # A direct call or jump, or (at -O0) the address of the draw
                # function taken for an indirect call: `lea ... # <hw_rdrand16>`.
                for t in TARGET_RE.findall(ops):
                    for g in by_base.get(base(t), [t]):
                        todo.append((g, d + 1))
    return found


def check_file(path, prefixes=("batch_", "draw_")):
    funcs, addrs = disassemble(path)
    problems = []
    for prefix in prefixes:
        at = {}
        for insn in ("rdrand", "rdseed"):
            for width in (16, 32, 64):
                name = f"{prefix}{insn}{width}"
                cands = [f for f in funcs if base(f) == name]
                if not cands:
                    problems.append(f"{path}: {name}: no such function (folded into another, or renamed)")
                    continue
                f = cands[0]
                if addrs[f] in at:
                    problems.append(f"{path}: {name} is at the same address as {at[addrs[f]]}")
                at[addrs[f]] = name
                got = forms(funcs, f)
                if got != {(insn, width)}:
                    desc = ", ".join(f"{i}{w}" for i, w in sorted(got)) or "none"
                    problems.append(f"{path}: {name} runs {desc}, expected only the {width}-bit {insn}")
    return problems


def matrix(srcdir):
    problems, checked = [], 0
    svc = os.path.join(srcdir, "service", "engine")
    incs = ["-I", svc, "-I", os.path.join(svc, "probe"), "-I", os.path.join(svc, "sources"),
            "-I", os.path.join(srcdir, "service", "shared")]
    with tempfile.TemporaryDirectory() as tmp:
        for cc in ("gcc", "clang"):
            if not shutil.which(cc):
                problems.append(f"{cc}: not installed")
                continue
            for opt in ("-O0", "-O1", "-O2", "-O3", "-Os"):
                obj = os.path.join(tmp, f"{cc}{opt}-x86.o")
                cmd = [cc, "-std=c11", "-D_GNU_SOURCE", opt, "-c", os.path.join(svc, "sources", "x86.c")] + incs + ["-o", obj]
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode != 0:
                    problems.append(f"{' '.join(cmd)}: {p.stderr.strip()}")
                    continue
                got = check_file(obj)
                problems += [f"{cc} {opt}: {g}" for g in got]
                checked += 1
    return problems, checked


def main(argv):
    if len(argv) >= 2 and argv[0] == "--matrix":
        problems, checked = matrix(argv[1])
        what = f"{checked} objects (gcc and clang, -O0..-O3, -Os)"
    elif argv and not argv[0].startswith("-"):
        problems = []
        for path in argv:
            problems += check_file(path)
        what = ", ".join(argv)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print(f"ok: every instruction and width runs its own form in {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
