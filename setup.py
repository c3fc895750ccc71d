"""The build of `pip install .` (pyproject.toml): the package python/kalah, and its extension
kalah._kalah built by the project's own CMake (the target kalah_python, the same as
`cmake --install` installs) for the interpreter running pip, so a venv gets a module of its own.
The CMake build directory is $KALAH_PIP_BUILD_DIR, else build/pip-<python> in the source tree, so
that a second install compiles only what changed.

pip builds a wheel through the command bdist_wheel, which setuptools before 70.1 takes from the
package `wheel`. Debian's Python has it (python3-wheel); a Python of pyenv's or a plain venv
often has setuptools but not wheel (and no PyPI to fetch it from), so without it this file
writes the wheel itself (PlainWheel): the same files, the dist-info PEP 427 asks for."""
import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile

from setuptools import Command, Extension, setup
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
        built = os.path.join(build, "python", "kalah",
                             os.path.basename(self.get_ext_filename(ext.name)))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


class PlainWheel(Command):
    """bdist_wheel for a setuptools without the package wheel: builds, then zips the build's
    files and a dist-info (METADATA, WHEEL, top_level.txt, RECORD) as PEP 427 says."""
    user_options = [("dist-dir=", "d", "where the wheel goes")]

    def initialize_options(self):
        self.dist_dir = None

    def finalize_options(self):
        self.dist_dir = self.dist_dir or "dist"

    def egg2dist(self, egg_info, dist_info):
        """What setuptools' dist_info (pip's metadata step) asks of bdist_wheel."""
        os.makedirs(dist_info, exist_ok=True)
        shutil.copyfile(os.path.join(egg_info, "PKG-INFO"), os.path.join(dist_info, "METADATA"))
        shutil.copyfile(os.path.join(egg_info, "top_level.txt"),
                        os.path.join(dist_info, "top_level.txt"))

    def run(self):
        self.run_command("build")
        lib = self.get_finalized_command("build").build_lib
        meta = self.distribution.metadata
        name, ver = meta.get_name(), meta.get_version()
        py = f"cp{sys.version_info.major}{sys.version_info.minor}"
        tag = f"{py}-{py}-" + re.sub(r"[-.]", "_", sysconfig.get_platform())
        info = f"{name}-{ver}.dist-info"
        os.makedirs(self.dist_dir, exist_ok=True)
        path = os.path.join(self.dist_dir, f"{name}-{ver}-{tag}.whl")
        record = []

        def add(archive, arcname, data):
            archive.writestr(arcname, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{arcname},sha256={digest.decode()},{len(data)}")

        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for folder, _, files in os.walk(lib):
                for file in sorted(files):
                    full = os.path.join(folder, file)
                    with open(full, "rb") as f:
                        add(archive, os.path.relpath(full, lib).replace(os.sep, "/"), f.read())
            metadata = io.StringIO()
            meta.write_pkg_file(metadata)
            add(archive, f"{info}/METADATA", metadata.getvalue().encode())
            add(archive, f"{info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: kalah setup.py\n"
                f"Root-Is-Purelib: false\nTag: {tag}\n".encode())
            add(archive, f"{info}/top_level.txt", b"kalah\n")
            archive.writestr(f"{info}/RECORD", "\n".join(record + [f"{info}/RECORD,,"]) + "\n")


def commands():
    try:
        import wheel  # noqa: F401  (its bdist_wheel is setuptools' default)
        return {"build_ext": CMakeBuild}
    except ImportError:
        return {"build_ext": CMakeBuild, "bdist_wheel": PlainWheel}


setup(
    version=version(),
    packages=["kalah"],
    package_dir={"": "python"},
    package_data={"kalah": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("kalah._kalah", sources=[])],
    cmdclass=commands(),
    zip_safe=False,
    # setuptools' own files in the build tree, not beside the sources.
    options={"build": {"build_base": os.path.join("build", "setuptools")}},
)
