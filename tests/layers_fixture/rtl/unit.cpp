// planted: C++ in rtl/
int unit;
