// libsystemc's own main() calls sc_main, so the library leaves sc_main undefined; a plugin loaded
// with RTLD_NOW needs it defined in its load scope. The cycle plugin never calls it (the host
// program has its own main); this library only satisfies the link.
extern "C" int sc_main(int, char **) { return 0; } // SystemC declares it extern "C"
