#!/usr/bin/env python3
"""The adapters' layers, checked from the source: src/families may use src/server and src/postgres,
src/server may use src/postgres, and no module of src/server or src/postgres names a family; a family names
another only for an SQL type it takes (SHARED_TYPES); and no cycle among the adapter modules (0.5.0 had clock_wait -> watermark -> high_water -> clock_wait).
   python3 tests/module_layers.py [SRC_DIR]      prints the layers and exits 1 on a breach"""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")
LAYERS = {"families": 2, "server": 1, "postgres": 0}
uses = {}  # "server/watermark" -> {"server/high_water", ...}
for layer in LAYERS:
    for name in sorted(os.listdir(os.path.join(src, layer))):
        if not name.endswith(".rs") or name == "mod.rs":
            continue
        text = open(os.path.join(src, layer, name)).read()
        found = {f"{g}/{m}" for g, m in re.findall(r"crate::(families|server|postgres)::(\w+)", text)}
        for g, group in re.findall(r"crate::(families|server|postgres)::\{([^}]*)\}", text):
            found |= {f"{g}/{item.strip().split('::')[0]}" for item in group.split(",") if item.strip()}
        module = f"{layer}/{name[:-3]}"
        uses[module] = found - {module}

# Across families, only the SQL types a family defines and another takes as an argument (masking over the
# COMB formats and snos): no family calls another's functions.
SHARED_TYPES = {"comb": {"FormatArg"}, "sno": {"Sno"}}
across = {}  # "families/mask" -> {("comb", "FormatArg"), ...}
for name in sorted(os.listdir(os.path.join(src, "families"))):
    if name.endswith(".rs") and name != "mod.rs":
        text = open(os.path.join(src, "families", name)).read()
        for family, items in re.findall(r"crate::families::(\w+)::(\{[^}]*\}|\w+)", text):
            for item in items.strip("{}").split(","):
                if item.strip() and family != name[:-3]:
                    across.setdefault(f"families/{name[:-3]}", set()).add((family, item.strip().split("::")[0]))

breaches = []
for module, items in sorted(across.items()):
    for family, item in sorted(items):
        if item not in SHARED_TYPES.get(family, ()):
            breaches.append(f"{module} uses families/{family}'s {item}, which is not one of the SQL types families share")
for module, used in sorted(uses.items()):
    for other in sorted(used):
        if other not in uses:
            breaches.append(f"{module} uses {other}, which is not a module")
        elif LAYERS[other.split("/")[0]] > LAYERS[module.split("/")[0]]:
            breaches.append(f"{module} (layer {module.split('/')[0]}) uses {other}, a layer above it")


def cycle_from(start):
    path, seen = [start], set()

    def walk(node):
        for nxt in sorted(uses.get(node, ())):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                found = walk(nxt)
                if found:
                    return found
                path.pop()
        return None

    return walk(start)


for module in sorted(uses):
    cycle = cycle_from(module)
    if cycle:
        breaches.append("cycle: " + " -> ".join(cycle))
        break

print(
    f"module layers: {len(uses)} adapter modules, {sum(len(u) for u in uses.values())} uses between them; "
    f"across families only shared SQL types ({', '.join(sorted(f'{f}::{i}' for v in across.values() for f, i in v))})"
)
for b in breaches:
    print("  BREACH", b)
sys.exit(1 if breaches else 0)
