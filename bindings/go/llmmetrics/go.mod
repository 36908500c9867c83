module llmmetrics

go 1.19
