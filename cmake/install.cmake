# Installation and packaging: `cmake --install build --prefix P` and `cpack -G DEB` (in build/).
#   P/bin/kalah                         the command line
#   P/bin/kalah-check-certificate       tools/check_certificate.py (Python 3, python3-zstandard)
#   P/lib/libkalah.so*                  the library (include/kalah/kalah.h's API only)
#   P/include/kalah/{kalah,version}.h
#   P/lib/cmake/kalah/                  find_package(kalah CONFIG): target kalah::kalah
#   P/lib/pkgconfig/kalah.pc            pkg-config --cflags --libs kalah
# (lib is CMAKE_INSTALL_LIBDIR: lib/x86_64-linux-gnu under /usr on Debian.)
include(CMakePackageConfigHelpers)

install(TARGETS kalah RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The certificate checker, independent of the C++ (docs/design.md §8).
install(PROGRAMS tools/check_certificate.py DESTINATION ${CMAKE_INSTALL_BINDIR}
        RENAME kalah-check-certificate)
install(TARGETS kalah_lib EXPORT kalahTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES include/kalah/kalah.h ${PROJECT_BINARY_DIR}/include/kalah/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kalah)

set(KALAH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kalah)
install(EXPORT kalahTargets NAMESPACE kalah:: DESTINATION ${KALAH_CMAKE_DIR})
configure_package_config_file(cmake/kalahConfig.cmake.in ${PROJECT_BINARY_DIR}/kalahConfig.cmake
                              INSTALL_DESTINATION ${KALAH_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kalahConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kalahConfig.cmake ${PROJECT_BINARY_DIR}/kalahConfigVersion.cmake
        DESTINATION ${KALAH_CMAKE_DIR})

# Relocatable: the prefix is found from where the .pc file is.
file(RELATIVE_PATH KALAH_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(cmake/kalah.pc.in ${PROJECT_BINARY_DIR}/kalah.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/kalah.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES LICENSE README.md CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# cpack -G DEB: a package of all the above for Debian 12 (the dependencies are its packages).
set(CPACK_PACKAGE_NAME kalah)
set(CPACK_PACKAGE_VENDOR "the kalah developers")
set(CPACK_PACKAGE_CONTACT "the kalah developers <kalah@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "perfect-play solver and endgame databases for Kalah")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libboost-program-options1.74.0, libtbb12, libzstd1, libstdc++6 (>= 12)")
# kalah-check-certificate, a Python program.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-zstandard")
include(CPack)
