"""Tools around the library, kept out of it (and out of the wheel): installing KataGo for
``--life katago`` (``make katago``) and refitting the estimator's second look on undecided
strings (``python -m tools.fit_undecided RUN...``)."""
