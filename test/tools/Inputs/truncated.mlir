phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
