#include <torch/headeronly/util/TypeSafeSignMath.h>
