define({ answer: 42 });
