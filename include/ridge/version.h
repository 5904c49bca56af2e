/* ridge's version as the headers a program compiles against give it. ridge_version() (ridge.h)
 * returns the library's own: a newer one with the same MAJOR keeps the ABI. CMakeLists.txt reads
 * the project's version from here. */
#ifndef RIDGE_VERSION_H
#define RIDGE_VERSION_H

#define RIDGE_VERSION_MAJOR 0
#define RIDGE_VERSION_MINOR 2
#define RIDGE_VERSION_PATCH 0
#define RIDGE_VERSION_STRING "0.2.0"

#endif /* RIDGE_VERSION_H */
