"""Host side of edgecl: config, datasets, CL reference training, SparCL, export, Miro, experiments, reports."""
