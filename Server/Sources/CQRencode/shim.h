// libqrencode's API (https://fukuchi.org/works/qrencode/), for Swift.
#include <qrencode.h>
