"""The tutorial in the browser (issue 25): its endpoints (``api``) and words (``words``)."""
