"""Reader calibration: does a reader's confidence f mean "this passage answers the query"?"""
