// Prepended to the generated module: the live-session classes the bindings export, so the
// web model can check that the core it loaded has the sessions it needs.
Module['sessionClasses'] = ['QueueSession', 'FlashSession', 'DiskSession'];
