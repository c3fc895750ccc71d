"""The build of `pip install .` (pyproject.toml): the package python/kalah, and its extension
kalah._kalah built by the project's own CMake (the target kalah_python, the same as
`cmake --install` installs) for the interpreter running pip, so a venv gets a module of its own.
The CMake build directory is $KALAH_PIP_BUILD_DIR, else build/pip-<python> in the source tree, so
that a second install compiles only what changed."""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(kalah VERSION (\S+)", f.read()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("KALAH_PIP_BUILD_DIR") or os.path.join(
            ROOT, "build", "pip-" + sysconfig.get_config_var("SOABI"))
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                        "-DKALAH_PYTHON=ON", "-DKALAH_BUILD_TESTS=OFF",
                        f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", build, "--target", "kalah_python",
                        "-j", str(os.cpu_count() or 1)], check=True)
        built = os.path.join(build, "python", "kalah", os.path.basename(self.get_ext_filename(ext.name)))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


setup(
    version=version(),
    packages=["kalah"],
    package_dir={"": "python"},
    package_data={"kalah": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("kalah._kalah", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # setuptools' own files in the build tree, not beside the sources.
    options={"build": {"build_base": os.path.join("build", "setuptools")}},
)
