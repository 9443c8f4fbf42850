# -*- Python -*-
# Runs every GoogleTest binary under unittests/ (names ending in "Tests").
import os

import lit.formats

config.name = "PHAEDRUS-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.phaedrus_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
