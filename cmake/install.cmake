# Installation and packaging: `cmake --install build --prefix P` and `cpack -G DEB` (in build/).
#   P/bin/kalah                         the command line
#   P/bin/kalah-check-certificate       a link to P/share/kalah/check_certificate.py (and its
#                                       certificate_layers.py, value_codes.py; Python 3,
#                                       python3-zstandard)
#   P/lib/libkalah.so*                  the library (include/kalah/kalah.h's API only)
#   P/include/kalah/{kalah,version}.h
#   P/lib/cmake/kalah/                  find_package(kalah CONFIG): target kalah::kalah
#   P/lib/pkgconfig/kalah.pc            pkg-config --cflags --libs kalah
# (lib is CMAKE_INSTALL_LIBDIR: lib/x86_64-linux-gnu under /usr on Debian.)
include(CMakePackageConfigHelpers)

# Components, one Debian package each (below): program, library, dev, python.
install(TARGETS kalah RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT program)
# The certificate checker, independent of the C++ (docs/design.md §8): its two files in
# share/kalah, the command a symbolic link to them (Python finds the module beside the file a
# link names).
install(PROGRAMS tools/checker/check_certificate.py DESTINATION ${CMAKE_INSTALL_DATADIR}/kalah
        COMPONENT program)
install(FILES tools/checker/certificate_layers.py tools/checker/value_codes.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/kalah
        COMPONENT program)
file(RELATIVE_PATH KALAH_CHECKER_LINK ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_FULL_DATADIR}/kalah/check_certificate.py)
file(CREATE_LINK ${KALAH_CHECKER_LINK} ${PROJECT_BINARY_DIR}/kalah-check-certificate SYMBOLIC)
install(FILES ${PROJECT_BINARY_DIR}/kalah-check-certificate DESTINATION ${CMAKE_INSTALL_BINDIR}
        COMPONENT program)
install(TARGETS kalah_lib EXPORT kalahTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library NAMELINK_COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES include/kalah/kalah.h ${PROJECT_BINARY_DIR}/include/kalah/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kalah COMPONENT dev)

set(KALAH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kalah)
install(EXPORT kalahTargets NAMESPACE kalah:: DESTINATION ${KALAH_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(cmake/kalahConfig.cmake.in ${PROJECT_BINARY_DIR}/kalahConfig.cmake
                              INSTALL_DESTINATION ${KALAH_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kalahConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kalahConfig.cmake ${PROJECT_BINARY_DIR}/kalahConfigVersion.cmake
        DESTINATION ${KALAH_CMAKE_DIR} COMPONENT dev)

# Relocatable: the prefix is found from where the .pc file is.
file(RELATIVE_PATH KALAH_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(cmake/kalah.pc.in ${PROJECT_BINARY_DIR}/kalah.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/kalah.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT dev)
# The documents the help and the man page point to.
install(FILES LICENSE README.md CHANGELOG.md docs/json.md docs/design.md docs/results.md
              docs/guide.md docs/costs.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT program)
install(DIRECTORY examples DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT dev)

# cpack -G DEB: Debian packages, one per component, their dependencies computed from the
# binaries (dpkg-shlibdeps):
#   kalah          the program, its man page and documents, kalah-check-certificate
#   libkalah0      the shared library
#   libkalah-dev   headers, CMake package, pkg-config file, examples
#   python3-kalah  the Python module (it carries the library's code: no libkalah0 needed)
set(CPACK_PACKAGE_NAME kalah)
set(CPACK_PACKAGE_VENDOR "the kalah developers")
# The maintainers' address of the repository's commits.
set(CPACK_PACKAGE_CONTACT "kalah maintainers <maintainers@users.noreply.a-seed-f2f6dde4.example>")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL program library dev)
if(TARGET kalah_python)
  list(APPEND CPACK_COMPONENTS_ALL python)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
string(CONCAT KALAH_DEB_DESCRIPTION
    "Kalah (the two-row mancala sold as Mancala) solved exactly: endgame databases built by\n"
    "retrograde analysis, indexed by a combinatorial ranking and stored in zstd blocks, and an\n"
    "alpha-beta/MTD(f) search that ends at them. Every rule variant (capture, end of game,\n"
    "remainder, the pie rule), proofs that an independent checker verifies.")

# The program built for mpirun (-DKALAH_MPI=ON, as the tests' build is) links Open MPI: it is a
# package of its own, kalah-mpi, in place of kalah; the package users build (scripts/build.sh)
# leaves MPI out.
set(CPACK_DEBIAN_PROGRAM_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PROGRAM_PACKAGE_RECOMMENDS "python3, python3-zstandard")
string(CONCAT CPACK_DEBIAN_PROGRAM_DESCRIPTION
    "perfect-play solver and endgame databases for Kalah\n${KALAH_DEB_DESCRIPTION}\n"
    "This package holds the kalah command: build, solve, query, verify, serve (an analysis\n"
    "board in the browser), play, kgp; and kalah-check-certificate.")
if(KALAH_MPI)
  set(CPACK_DEBIAN_PROGRAM_PACKAGE_NAME kalah-mpi)
  set(CPACK_DEBIAN_PROGRAM_PACKAGE_PROVIDES kalah)
  set(CPACK_DEBIAN_PROGRAM_PACKAGE_CONFLICTS kalah)
  set(CPACK_DEBIAN_PROGRAM_PACKAGE_REPLACES kalah)
  string(APPEND CPACK_DEBIAN_PROGRAM_DESCRIPTION
         "\nBuilt for mpirun (Open MPI): kalah build and solve over several processes.")
else()
  set(CPACK_DEBIAN_PROGRAM_PACKAGE_NAME kalah)
endif()

set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME libkalah${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_LIBRARY_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBRARY_PACKAGE_GENERATE_SHLIBS ON)
string(CONCAT CPACK_DEBIAN_LIBRARY_DESCRIPTION
    "Kalah solver library: probe databases and solve positions\n${KALAH_DEB_DESCRIPTION}\n"
    "This package holds the shared library.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libkalah-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libkalah${PROJECT_VERSION_MAJOR} (= ${PROJECT_VERSION})")
string(CONCAT CPACK_DEBIAN_DEV_DESCRIPTION
    "Kalah solver library: development files\n${KALAH_DEB_DESCRIPTION}\n"
    "This package holds the C++ header, the CMake package (find_package(kalah)), the\n"
    "pkg-config file and example programs.")

set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-kalah)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "${KALAH_PYTHON_DEB_DEPENDS}")
string(CONCAT CPACK_DEBIAN_PYTHON_DESCRIPTION
    "Kalah solver for Python\n${KALAH_DEB_DESCRIPTION}\n"
    "This package holds the Python 3 module kalah.")
include(CPack)
