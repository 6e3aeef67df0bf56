#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check, on built code, that every (instruction, width) of the probe runs its
own instruction form.

x86-64: for each hardware loop (batch_rdrand16 ... batch_rdseed64) and each
hardware draw (draw_rdrand16 ...) of the x86-64 draw code,
service/engine/sources/x86.c,
collect the rdrand/rdseed instructions reachable from the function through
direct calls, jumps and taken function addresses (at -O0 the instruction sits
in a helper called through a pointer), and require that the set is exactly
that width's register form. A function that is an
alias of another width's (identical code folding: `jmp batch_rdseed16`, or two
symbols at one address) therefore fails, and so does a missing function.

arm64 (an aarch64 file, read with aarch64-linux-gnu-objdump): the same for
batch_rndr64, batch_rndrrs64, draw_rndr64 and draw_rndrrs64 of
service/engine/sources/arm64.c, whose one form each is `mrs Xn, <register>`:
RNDR is s3_3_c2_c4_0 and RNDRRS s3_3_c2_c4_1 (older objdumps print the
encoding, newer ones the name); a read into a W register, or of the other
register, fails.

  check-binary.py FILE...              check built files (executable or .o)
  check-binary.py --matrix SRCDIR      compile service/engine/sources/x86.c with gcc
                                       and clang at -O0..-O3 and -Os and check each
                                       object
  check-binary.py --matrix SRCDIR --arch aarch64
                                       the same for arm64.c, with aarch64-linux-gnu-gcc
                                       and clang --target=aarch64-linux-gnu

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
RELOC_RE = re.compile(r"^\s*[0-9a-f]+:\s+R_(?:X86_64|AARCH64)_\w+\s+([^\s+-]+)(?:\+0x([0-9a-f]+))?")

# Each architecture: its objdump and options, its sources' forms (the
# function names' insn and width), and how an instruction of the draw code
# reads (mnemonic, operands) -> (insn, width) or None.
ARM64_SYSREGS = {"s3_3_c2_c4_0": "rndr", "rndr": "rndr", "s3_3_c2_c4_1": "rndrrs", "rndrrs": "rndrrs"}


def x86_form(mn, ops):
    if mn in ("rdrand", "rdseed"):
        return (mn, WIDTH_OF.get(ops.strip().lstrip("%"), 0))
    return None


def arm64_form(mn, ops):
    if mn != "mrs":
        return None
    parts = [o.strip() for o in ops.split("//")[0].split(",")]
    if len(parts) != 2 or parts[1].lower() not in ARM64_SYSREGS:
        return None
    reg = parts[0]
    return (ARM64_SYSREGS[parts[1].lower()], 64 if reg.startswith("x") else 32 if reg.startswith("w") else 0)


ARCHES = {
    "x86-64": {"objdump": ["objdump", "-M", "att"], "forms": [(i, w) for i in ("rdrand", "rdseed") for w in (16, 32, 64)],
               "form": x86_form, "source": "x86.c"},
    "aarch64": {"objdump": ["aarch64-linux-gnu-objdump"], "forms": [("rndr", 64), ("rndrrs", 64)],
                "form": arm64_form, "source": "arm64.c"},
}


def file_arch(path):
    """The architecture of an ELF file: its e_machine (62 x86-64, 183 aarch64)."""
    with open(path, "rb") as f:
        head = f.read(20)
    machine = int.from_bytes(head[18:20], "little") if head[:4] == b"\x7fELF" else None
    return {62: "x86-64", 183: "aarch64"}.get(machine, "x86-64")


def disassemble(path, arch="x86-64"):
    """{function: [(mnemonic, operands)]} and {function: address}."""
    cmd = ARCHES[arch]["objdump"]
    out = subprocess.run([cmd[0], "-dr", "--no-show-raw-insn"] + cmd[1:] + [path],
                         capture_output=True, text=True, check=True).stdout
    funcs, addrs, cur = {}, {}, None
    section_refs = []  # (function, index, offset): a relocation against .text+offset
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
            # A relocation names the real target of the previous
            # instruction, in place of objdump's guess (in an object file,
            # aarch64's `adrp x1, 0 <draw_rndr64>` names whatever is at 0).
            mn, ops = funcs[cur][-1]
            funcs[cur][-1] = (mn, f"{TARGET_RE.sub('', ops)} <{r.group(1)}>")
            if r.group(1).startswith(".text") and r.group(2):
                # A static function by its offset in the section (aarch64 -O0).
                section_refs.append((cur, len(funcs[cur]) - 1, int(r.group(2), 16)))
            continue
        m = INSN_RE.match(line)
        if m:
            funcs[cur].append((m.group(1), m.group(2)))
    by_addr = {a: f for f, a in addrs.items()}
    for f, k, off in section_refs:
        if off in by_addr:
            mn, ops = funcs[f][k]
            funcs[f][k] = (mn, f"{TARGET_RE.sub('', ops)} <{by_addr[off]}>")
    return funcs, addrs


def base(name):
    """batch_rdseed32.lto_priv.0 / .isra.0 / .constprop.0 -> batch_rdseed32."""
    return name.split(".")[0]


def forms(funcs, start, depth=4, form=x86_form):
    """The draw code's forms (insn, width) reachable from start."""
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
            got = form(mn, ops)
            if got:
                found.add(got)
            elif d < depth:
                # A direct call or jump, or (at -O0) the address of the draw
                # function taken for an indirect call: `lea ... # <hw_rdrand16>`.
                for t in TARGET_RE.findall(ops):
                    for g in by_base.get(base(t), [t]):
                        todo.append((g, d + 1))
    return found


def check_file(path, prefixes=("batch_", "draw_")):
    arch = file_arch(path)
    a = ARCHES[arch]
    funcs, addrs = disassemble(path, arch)
    problems = []
    for prefix in prefixes:
        at = {}
        for insn, width in a["forms"]:
            if True:
                name = f"{prefix}{insn}{width}"
                cands = [f for f in funcs if base(f) == name]
                if not cands:
                    problems.append(f"{path}: {name}: no such function (folded into another, or renamed)")
                    continue
                f = cands[0]
                if addrs[f] in at:
                    problems.append(f"{path}: {name} is at the same address as {at[addrs[f]]}")
                at[addrs[f]] = name
                got = forms(funcs, f, form=a["form"])
                if got != {(insn, width)}:
                    desc = ", ".join(f"{i}{w}" for i, w in sorted(got)) or "none"
                    problems.append(f"{path}: {name} runs {desc}, expected only the {width}-bit {insn}")
    return problems


def matrix(srcdir, arch="x86-64"):
    problems, checked = [], 0
    compilers = {"x86-64": [("gcc", ["gcc"]), ("clang", ["clang"])],
                 "aarch64": [("aarch64-linux-gnu-gcc", ["aarch64-linux-gnu-gcc"]),
                             ("clang", ["clang", "--target=aarch64-linux-gnu"])]}[arch]
    svc = os.path.join(srcdir, "service", "engine")
    incs = ["-I", svc, "-I", os.path.join(svc, "probe"), "-I", os.path.join(svc, "sources"),
            "-I", os.path.join(srcdir, "service", "shared")]
    with tempfile.TemporaryDirectory() as tmp:
        for cc, ccmd in compilers:
            if not shutil.which(ccmd[0]):
                problems.append(f"{cc}: not installed")
                continue
            for opt in ("-O0", "-O1", "-O2", "-O3", "-Os"):
                obj = os.path.join(tmp, f"{cc}{opt}-{arch}.o")
                cmd = ccmd + ["-std=c11", "-D_GNU_SOURCE", opt, "-c",
                              os.path.join(svc, "sources", ARCHES[arch]["source"])] + incs + ["-o", obj]
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
        arch = argv[3] if len(argv) >= 4 and argv[2] == "--arch" else "x86-64"
        if arch not in ARCHES:
            print(f"check-binary.py: unknown architecture {arch}", file=sys.stderr)
            return 2
        problems, checked = matrix(argv[1], arch)
        what = f"{checked} {arch} objects (gcc and clang, -O0..-O3, -Os)"
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
