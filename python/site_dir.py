"""Prints the directory where this Python looks for modules under an installation prefix, the
one `cmake --install --prefix P` puts the kalah module in (python/CMakeLists.txt), from Python's
own sysconfig: ~/.local -> the user site, /usr/local -> Debian's /usr/local/lib/python3.X/
dist-packages, /usr -> /usr/lib/python3/dist-packages, a venv -> its site-packages. A prefix this
Python does not search gets its site-packages layout there and exit status 3 (PYTHONPATH must
then name it).

usage: python3 site_dir.py PREFIX
"""
import os
import sys
import sysconfig

prefix = os.path.realpath(sys.argv[1])
schemes = sysconfig.get_scheme_names()
for scheme in (sysconfig.get_default_scheme(), "deb_system",
               sysconfig.get_preferred_scheme("user")):
    if scheme in schemes and os.path.realpath(sysconfig.get_path("data", scheme)) == prefix:
        print(sysconfig.get_path("platlib", scheme))
        sys.exit(0)
print(sysconfig.get_path("platlib", "posix_prefix", vars={"base": prefix, "platbase": prefix}))
sys.exit(3)
