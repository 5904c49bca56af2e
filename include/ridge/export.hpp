// Symbol visibility: the shared library is built with -fvisibility=hidden and exports only RIDGE_API.
#pragma once

#if defined(RIDGE_BUILDING_LIBRARY)
#define RIDGE_API __attribute__((visibility("default")))
#else
#define RIDGE_API
#endif
