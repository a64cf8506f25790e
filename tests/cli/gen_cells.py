"""gen_cells.py EGG IQE - the two small files that decode to a million poses (issue 26 item 8):
1000 joints, one of them animated over 1000 frames, so every joint has a pose in every frame
(hundreds of MB of decoded frames from 38 KB of text); the IQE gives 1000 frames of one pose line
each, the other joints taking their rest. Shared by max-memory-commands.sh and max-memory-rss.sh."""
import sys

o = ["<Group> root { <Dart> { 1 }"] + ["<Joint> j%d { }" % i for i in range(1000)] + ["}"]
o.append('<Table> { <Bundle> root { <Table> "<skeleton>" {')
o.append("<Table> j0 { <Xfm$Anim> x { <Scalar> fps { 24 } <Scalar> contents { x } <V> {"
         + "".join(" %d" % i for i in range(1000)) + "} } }")
o += ["<Table> j%d { }" % i for i in range(1, 1000)] + ["} } }"]
open(sys.argv[1], "w").write("\n".join(o) + "\n")
o = ["# Inter-Quake Export"] + ["joint j%d %d" % (i, i - 1) for i in range(1000)] + ["animation a"]
o += ["frame\npq 0 0 0 0 0 0 1"] * 1000
open(sys.argv[2], "w").write("\n".join(o) + "\n")
